"""The daemon, its command line and the simulator."""
