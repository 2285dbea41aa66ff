"""The engine protocol: roost's engines and external programs playing through one line-based
text protocol over stdin/stdout (docs/protocol.md is the reference a program is written from).

- ``messages``: the words of the protocol, and how ``go`` and ``info`` lines are written
  and read;
- ``lines``: reading lines from a pipe with deadlines, writing them without blocking forever;
- ``views``: what a seat is sent on a game with hidden information;
- ``server``: a roost engine served over the protocol (``roost engine GAME``);
- ``client``: ``ProtocolEngine``, the arena's side: an external program behind the engine
  interface (the ``cmd:COMMAND`` spec), and a roost engine run in a worker process.
"""
VERSION = 1
