"""The one exception type for mistakes a user can fix (bad config value, missing file, malformed row).

The command line prints its message and exits with status 2, without a stack trace. It subclasses
``ValueError`` so that library callers can catch it the ordinary way. One raised inside a Ray task
(verl's task runner: a checkpoint that does not fit the run) reaches the driver as Ray's
``RayTaskError`` subclassing it, whose text is the remote traceback; :func:`user_message` gives
the error's own line.
"""


class UserError(ValueError):
    """A mistake in the user's input; the message names the thing to fix."""


def user_message(err: UserError) -> str:
    """The message of ``err``, or of the error a Ray task raised when ``err`` carries it."""
    cause = getattr(err, "cause", None)  # ray.exceptions.RayTaskError keeps the remote error here
    return str(cause if isinstance(cause, UserError) else err)
