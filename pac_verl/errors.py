"""The one exception type for mistakes a user can fix (bad config value, missing file, malformed row).

The command line prints its message and exits with status 2, without a stack trace. It subclasses
``ValueError`` so that library callers can catch it the ordinary way.
"""


class UserError(ValueError):
    """A mistake in the user's input; the message names the thing to fix."""
