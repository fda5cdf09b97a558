"""How gmkit's Voila servers meet a network (issue 13).

- :mod:`gmkit._serving.guard`: who reaches a server (the table's token, Host and Origin checks,
  the refusal pages).
- :mod:`gmkit._serving.app`: Voila with every handler behind the guard, the page behind the cap.
- :mod:`gmkit._serving.kernels`: kernels culled (without a page, idle) and capped.
- :mod:`gmkit._serving.websocket`: the server-side rate limit on widget messages per kernel.
- :mod:`gmkit._serving.comm_limit`: the kernel-side one (an IPython extension).
"""
