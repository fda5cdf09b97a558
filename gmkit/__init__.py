"""gmkit: a Game Master's workbench in Jupyter.

The map as built is docs/architecture.md (its diagram of the layers, arrows pointing down, is
checked by tests/test_import_map.py). What a user may import, its "Public surface": this
package (the errors), ``gmkit.prep`` and ``gmkit.campaign`` (preparing a campaign and its
fights), ``gmkit.widgets`` (the table's widgets), ``gmkit.encounter``, ``gmkit.store``,
``gmkit.seats``, ``gmkit.dice``, ``gmkit.odds``, ``gmkit.sheets``, ``gmkit.simulate``,
``gmkit.messages``, ``gmkit.demo``, and for a game's plugin ``gmkit.games``, ``gmkit.plugins``
and the rules' seams in ``gmkit.systems``. A module or package whose name starts with ``_`` is
internal: it may change in any release.
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
