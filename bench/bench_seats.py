"""The players' seats (issue 23): a phone's request to the GM's inbox, and an accepted request
to a phone's screen, each against the players' view following one GM event, in the same run.

    python bench/bench_seats.py [--repeat 15]

Built without a browser or servers, as the pages' kernels do the work: the demo campaign file,
"The Chapel of the Pale Throne" started with typed initiative; the GM's encounter and the
seats file in one place, a seat's page (``PlayerView`` with the seat, reading the campaign
read-only) in the same process, as its kernel would. Measured (medians of ``--repeat``):

- reference: the players' view following a GM event (the GM adds and removes a condition;
  the view's ``poll`` reads the file and draws again): what every phone does today;
- request to inbox: the phone's Send (``SeatControls.end_turn``: the request written) and the
  GM's inbox reading it (``InboxPanel.refresh``) until it is listed;
- accepted to screen: the GM's Accept of an end of turn (the command, one event) and the seat's
  page poll that shows the answer and the new turn;
- a hit to the defender's phone: Cultist Ban's typed hit on Ilse Marr in the GM's attack form,
  the question asked (each reaction's odds, face by face) and the seat's page showing it;
- the reply to the GM's panel: the phone's Dodge with its die written, the GM's poll taking
  it into the form (the attack resolved again with the reaction's die).

Prints each with its ratio to the reference. Asserts nothing; exits 0.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from gmkit._forms import AttackForm
from gmkit._forms.asking import ReactionAsk
from gmkit.campaign import demo_campaign_file
from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.seats import SeatsFile
from gmkit.store import CampaignStore
from gmkit.widgets._inbox_panel import InboxPanel
from gmkit.widgets._player import PlayerView

CHAPEL = "The Chapel of the Pale Throne"


def median_ms(runs: list[float]) -> float:
    return statistics.median(runs) * 1000


def timed(step: Callable[[], object], undo: Callable[[], object], repeat: int) -> list[float]:
    found = []
    for _ in range(repeat):
        start = time.perf_counter()
        step()
        found.append(time.perf_counter() - start)
        undo()
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gmkit-bench-seats-") as folder:
        path = demo_campaign_file(Path(folder))
        gm = CampaignStore(path)
        fight = Encounter.open(gm, CHAPEL)
        fight.roll_initiative(EnteredDice([9, 10, 6, 7, 1, 5, 4, 8]))
        fight.start()
        # a clock 10 s on at each reading: the seat's rate (a phone's) never holds a run back
        seats = SeatsFile.of_campaign(path, clock=itertools.count(0, 10).__next__)
        ilse = fight.combatant("Ilse Marr").id
        seat = seats.give(CHAPEL, "Ana", [ilse])
        players = CampaignStore(path, readonly=True)
        page = PlayerView(players, CHAPEL, follow=False, seat=seat, seats=seats)
        inbox = InboxPanel(fight, seats)
        try:
            controls = page.seat_controls
            assert controls is not None

            def follow_event() -> None:
                fight.add_condition(ilse, "prone")
                page.poll()

            def undo_event() -> None:
                fight.undo()
                page.poll()

            reference = timed(follow_event, undo_event, args.repeat)

            def request_to_inbox() -> None:
                controls.end_turn()
                inbox.refresh()
                assert inbox.waiting, "the request did not reach the inbox"

            def refuse_it() -> None:
                for asked in list(inbox.waiting):
                    inbox.refuse(asked.request.id)
                page.poll()

            requested = timed(request_to_inbox, refuse_it, args.repeat)

            def accepted_to_screen() -> None:
                inbox.accept(inbox.waiting[0].request.id)
                page.poll()
                assert "accepted" in controls.answers.value

            accepted = []
            for _ in range(args.repeat):
                controls.end_turn()
                inbox.refresh()
                accepted += timed(accepted_to_screen, lambda: (fight.undo(), page.poll()), 1)

            # a reaction asked (the GM's side reads the seats file on the clock the phone does)
            asked_seats = SeatsFile.of_campaign(path)
            asking = ReactionAsk(fight, asked_seats, seconds=3600)
            form = AttackForm(fight, budget=False)  # out of his turn: the numbers alone
            form.select_attacker(fight.combatant("Cultist Ban").id)
            form.select_weapon("Stub Automatic")
            form.select_target(ilse)
            box = controls.reaction_box
            hit_to_phone, reply_to_panel = [], []
            for _ in range(args.repeat):
                form.select_reaction("")
                form.take_dice(["5", "3"])
                asked_seats.questions.touch(seat.key)
                start = time.perf_counter()
                asking.consider(form)
                page.poll()
                hit_to_phone.append(time.perf_counter() - start)
                assert box.question is not None, "the phone was not asked"
                start = time.perf_counter()
                box.die.value = "7"
                box.reply("dodge")
                asking.poll(form)
                reply_to_panel.append(time.perf_counter() - start)
                assert form.reaction == "dodge", "the reply did not reach the GM's panel"
            form.close()
            asked_seats.close()
        finally:
            inbox.close()
            page.close()
            players.close()
            seats.close()
            gm.close()
    base = median_ms(reference)
    print(f"gmkit seats bench: {CHAPEL}, {args.repeat} runs each (medians)")
    print(f"players' view following a GM event (reference): {base:.1f} ms")
    for name, runs in (
        ("a phone's request to the GM's inbox", requested),
        ("an accepted request to the phone's screen", accepted),
        ("a hit to the defender's phone (the question, its odds)", hit_to_phone),
        ("the defender's reply to the GM's panel (resolved again)", reply_to_panel),
    ):
        ms = median_ms(runs)
        print(f"{name}: {ms:.1f} ms, {ms / base:.2f}x the reference (same run)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
