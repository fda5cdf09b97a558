"""Every label in English and Spanish, switchable at run time.

``t("next_turn")`` gives the label in the current language; ``LANGUAGE.value = "es"`` switches
every widget that observes ``LANGUAGE`` (``LANGUAGE.observe(callback, names="value")``). A label
missing from a language falls back to English, then to the key itself, so a new widget never
breaks; ``tests/widgets/test_i18n.py`` checks both languages have the same keys.
"""

from __future__ import annotations

from traitlets import HasTraits, Unicode, validate

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "language": "Language",
        "character": "Character",
        "round": "Round",
        "turn": "Turn",
        "phase": "Phase",
        "side": "Side",
        "next_turn": "Next",
        "previous_turn": "Previous",
        "undo": "Undo",
        "redo": "Redo",
        "roll_initiative": "Roll initiative",
        "start": "Start",
        "initiative": "Initiative",
        "conditions": "Conditions",
        "wounds": "Wounds",
        "hidden": "hidden",
        "delayed": "delayed",
        "readied": "readied",
        "surprised": "surprised",
        "actions_left": "Actions left",
        "reactions_left": "Reactions left",
        "add": "Add",
        "remove": "Remove",
        "attacker": "Attacker",
        "weapon": "Weapon",
        "mode": "Mode",
        "action": "Action",
        "target": "Target",
        "distance": "Distance",
        "circumstances": "Circumstances",
        "modifiers": "Modifiers",
        "total": "Total",
        "dice": "Dice",
        "gmkit_rolls": "gmkit rolls",
        "physical_dice": "Table's dice",
        "enter_die": "Enter",
        "resolve": "Resolve",
        "apply": "Apply",
        "reaction": "Reaction",
        "result": "Result",
        "log": "Log",
        "filter": "Filter",
        "export_csv": "Export CSV",
        "dice_tray": "Dice tray",
        "roll": "Roll",
        "expression": "Expression",
        "sheet": "Sheet",
        "derived": "Derived",
        "save": "Save",
        "players": "Players",
        "gm_only": "GM only",
        "kind": "Kind",
        "actor": "Actor",
        "outcome": "Outcome",
        "all": "All",
        "budget": "Budget",
        "cannot_resolve": "Cannot resolve yet",
        "check_budget": "Action budget",
        "effects": "Effects",
        "location": "Location",
        "modifiers_after": "shown with the steps when resolved",
        "needed": "Needed",
        "no_effects": "nothing to apply",
        "no_modifiers": "no modifiers",
        "no_reaction": "none",
        "no_roll": "no roll",
        "not_offered": "Not offered",
        "or_less": "or less",
        "seed": "Seed",
        "step": "Step",
        "typed": "Typed so far",
        "uncapped": "uncapped",
        "unused_dice": "unused",
        "why": "Why",
        "reset": "Reset",
        "stale": "last valid values",
    },
    "es": {
        "language": "Idioma",
        "character": "Personaje",
        "round": "Asalto",
        "turn": "Turno",
        "phase": "Fase",
        "side": "Bando",
        "next_turn": "Siguiente",
        "previous_turn": "Anterior",
        "undo": "Deshacer",
        "redo": "Rehacer",
        "roll_initiative": "Tirar iniciativa",
        "start": "Empezar",
        "initiative": "Iniciativa",
        "conditions": "Estados",
        "wounds": "Heridas",
        "hidden": "oculto",
        "delayed": "retrasado",
        "readied": "preparado",
        "surprised": "sorprendido",
        "actions_left": "Acciones restantes",
        "reactions_left": "Reacciones restantes",
        "add": "Añadir",
        "remove": "Quitar",
        "attacker": "Atacante",
        "weapon": "Arma",
        "mode": "Modo",
        "action": "Acción",
        "target": "Objetivo",
        "distance": "Distancia",
        "circumstances": "Circunstancias",
        "modifiers": "Modificadores",
        "total": "Total",
        "dice": "Dados",
        "gmkit_rolls": "Tira gmkit",
        "physical_dice": "Dados de la mesa",
        "enter_die": "Introducir",
        "resolve": "Resolver",
        "apply": "Aplicar",
        "reaction": "Reacción",
        "result": "Resultado",
        "log": "Registro",
        "filter": "Filtrar",
        "export_csv": "Exportar CSV",
        "dice_tray": "Bandeja de dados",
        "roll": "Tirar",
        "expression": "Expresión",
        "sheet": "Hoja",
        "derived": "Derivados",
        "save": "Guardar",
        "players": "Jugadores",
        "gm_only": "Solo DJ",
        "kind": "Tipo",
        "actor": "Actor",
        "outcome": "Resultado",
        "all": "Todos",
        "budget": "Presupuesto",
        "cannot_resolve": "Aún no se puede resolver",
        "check_budget": "Presupuesto de acciones",
        "effects": "Efectos",
        "location": "Localización",
        "modifiers_after": "se muestran con los pasos al resolver",
        "needed": "Necesario",
        "no_effects": "nada que aplicar",
        "no_modifiers": "sin modificadores",
        "no_reaction": "ninguna",
        "no_roll": "sin tirada",
        "not_offered": "No disponible",
        "or_less": "o menos",
        "seed": "Semilla",
        "step": "Paso",
        "typed": "Introducido hasta ahora",
        "uncapped": "sin límite",
        "unused_dice": "sobran",
        "why": "Por qué",
        "reset": "Restablecer",
        "stale": "últimos valores válidos",
    },
}


class Language(HasTraits):
    """The current language of every gmkit widget in this kernel."""

    value = Unicode("en", help="'en' or 'es'")

    @validate("value")
    def _known(self, proposal: dict[str, object]) -> str:
        value = str(proposal["value"])
        if value not in LABELS:
            raise ValueError(f"language: {value!r} is not one of {', '.join(LABELS)}")
        return value


LANGUAGE = Language()


def t(key: str, language: str | None = None) -> str:
    """The label ``key`` in ``language`` (default: the current one)."""
    chosen = LABELS.get(language or LANGUAGE.value, {})
    return chosen.get(key) or LABELS["en"].get(key) or key
