"""The players' phones without a kernel each (issue 26, item 3): one process per table follows
the fight once and pushes what the players may see to every phone over a WebSocket.

- :mod:`gmkit._phones._room`: the fight followed, its picture made once per change and
  language;
- :mod:`gmkit._phones._seat`: a player's seat (the attack chooser, actions, End turn, the
  GM's answers, a hit to react to), from the same forms and words as the Voila seat;
- :mod:`gmkit._phones._page`: the page a phone loads (HTML, style, a small script);
- :mod:`gmkit._phones._server`: the tornado server, its door (:mod:`gmkit._serving.guard`),
  what a phone may send.

``gmkit players --light`` serves it (the Voila page stays the default until the browser
tests run on it).
"""
