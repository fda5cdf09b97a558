"""gmkit: a Game Master's workbench in Jupyter.

Layers (arrows point downwards; see DESIGN.md):

    widgets/  cli.py          views and entry points
    encounter  store  odds    the table's truth
    systems/  sheets/  dice/  pure rules
"""

from gmkit.errors import (
    DiceError,
    DiceSyntaxError,
    DiceValueError,
    GmkitError,
    RulesError,
    SheetError,
)

__version__ = "0.1.0"

__all__ = [
    "DiceError",
    "DiceSyntaxError",
    "DiceValueError",
    "GmkitError",
    "RulesError",
    "SheetError",
    "__version__",
]
