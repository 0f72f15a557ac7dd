"""pac-verl: Progress-Augmented Advantage Curriculum (PAC) for multi-task GRPO on verl."""

__version__ = "0.1.0"
