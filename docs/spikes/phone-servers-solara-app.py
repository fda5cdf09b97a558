"""Solara app: the gmkit players' view (PlayerView of the demo's first encounter), one per page.

Run: solara run app.py --port 8951 --host 127.0.0.1 --production
Each page (Solara "virtual kernel") opens its own read-only store, as each Voila kernel does.
"""
import asyncio
import os
import threading

import solara

from gmkit.campaign import open_campaign
from gmkit.widgets import PlayerView

CAMPAIGN = os.environ.get("GMKIT_CAMPAIGN", "/tmp/spike-solara/demo.gmk")

# WORKAROUND (spike only): gmkit's comm guard (gmkit/widgets/_comm_guard.quiet_comm_logs, run by
# every PlayerView) chains ipywidgets' single construction callback to the one set before it;
# reacton (solara) does the same at each render. In one shared process the two chain to each
# other and the 2nd page dies with RecursionError. Install gmkit's guard once, let reacton chain
# it, and mark reacton's recorder as "already guarded" so later PlayerViews add nothing.
import reacton.core as _rc  # noqa: E402
from gmkit.widgets._comm_guard import quiet_comm_logs  # noqa: E402

quiet_comm_logs()
_rc._stop_recording_constructed(_rc._start_recording_constructed([]))
_rc._record_constructed_widget._gmkit_guard = True


def _build():
    store = open_campaign(CAMPAIGN, readonly=True)
    view = PlayerView(store, store.encounters()[0].name)
    try:
        asyncio.get_running_loop()
        loop = "running loop"
    except RuntimeError:
        loop = "NO running loop"
    print(f"spike: PlayerView built ({loop}, thread {threading.current_thread().name}, "
          f"follower task {view.follower.task is not None})", flush=True)
    return view


@solara.component
def Page():
    view = solara.use_memo(_build, dependencies=[])
    solara.display(view)
