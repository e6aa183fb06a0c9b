# The Pico runs this at power-up: the gameboard co-processor (docs/firmware.md).
# Press BOOTSEL for half a second to stop it and get the REPL back (for mpremote).
from gameboard_fw.app import main

main()
