"""The one base of errors a person can fix (a file, an option, a move, a device path).

The command line prints their message, which names the file, line or value and the
fix, and exits with status 2: never a traceback.
"""


class GameboardError(Exception):
    """Bad input or an unusable device, explained in the message."""
