"""The arguments of the tool `work` that every example server exposes, as MCPServer reads them.

``MCPServer`` turns these ``Annotated`` types into the tool's JSON Schema
(``{"type": "integer", "minimum": 1, "maximum": 8}`` and ``5..40``).
"""

from typing import Annotated

from pydantic import Field

Steps = Annotated[int, Field(ge=1, le=8, description="how many steps")]
StepMs = Annotated[int, Field(ge=5, le=40, description="milliseconds per step")]
