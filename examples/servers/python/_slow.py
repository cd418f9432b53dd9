"""What the slow example servers share: the tool takes 30 s, reporting progress every second.

Nothing in the spec bounds how long a call may take. A slow tool that reports progress with the
client's token (``ctx.report_progress`` sends it only when the request carried one) and stops at
once on a cancel is correct, however long it takes; a client must neither time it out on a fixed
bound nor call it stuck. ``SECONDS`` and ``STEP_S`` are the one place its length is written.
"""

SECONDS = 30
"""How long one call of ``work`` takes, in seconds."""

STEP_S = 1.0
"""Seconds between two progress notifications."""

STEPS = round(SECONDS / STEP_S)
