"""Hardware drivers behind small interfaces (``hal.base``), and the mock HAL."""
