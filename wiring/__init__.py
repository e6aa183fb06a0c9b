"""The maps between hardware and board, their file format, checks and calibration."""
