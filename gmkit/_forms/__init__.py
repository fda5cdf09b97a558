"""The models below the widgets: a panel's selections, defaults and resets as plain objects.

:class:`AttackForm` is the attack panel's cascade (attacker, weapon, mode, action, target,
circumstances, reaction, dice) over an encounter; the widget only binds controls to it.
"""

from gmkit._forms.attack import OUT_OF_THE_FIGHT, AttackForm, FormError
from gmkit._forms.dice import DICE_MODES, DiceState
from gmkit._forms.offered import Offered

__all__ = ["DICE_MODES", "OUT_OF_THE_FIGHT", "AttackForm", "DiceState", "FormError", "Offered"]
