"""pac-verl: Progress-Augmented Advantage Curriculum (PAC) for multi-task GRPO on verl."""

import time as _time

__version__ = "0.1.0"
# when pac_verl was first imported in this process: "with start-up" times count from here, not
# from the process's creation, which an exec inherits (``uv run`` installs, then execs us)
STARTED = _time.perf_counter()
