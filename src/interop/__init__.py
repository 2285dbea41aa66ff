"""roost and other programs: the OpenSpiel bridge (``roost.interop.openspiel``) and the
``openspiel`` engine kind (``roost.interop.engine``).  OpenSpiel is an optional extra
(``pip install "roost[openspiel]"``); nothing here imports it until it is used.
"""
# The engine registry (roost.search.engines) imports roost.interop.engine, which builds on
# the registry's base class: loading the registry first makes either import order work.
import roost.search.engines  # noqa: F401
