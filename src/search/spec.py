"""Engine specs as values.  A spec text (``ab:depth=8,tt=64``) is read once, where it
enters, into an ``EngineSpec``: the engine kind and the value of each of its parameters,
every one checked against the kind's ``Param`` declarations.  A spec prints itself back as
its canonical text (the parameters at their defaults left out), which reads back as the
same spec; it builds its engine (``spec.engine()``), and a ``Limit`` is laid over its
budget for one search (``spec.within(limit, state)``).

Reading the text is the engine registry's work (``roost.search.engines.parse_spec``), which
knows every kind; a spec of a known kind is made here from values (``EngineSpec.of``).
"""
import math
from dataclasses import dataclass

from roost.core.errors import EngineSpecError, RoostError
from roost.search.limit import UNTIL_STOPPED, Limit


def format_value(v):
    """A setting as spec text: 1/0 for a switch, a number as short as reads back the same."""
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, float):
        short = f"{v:g}"
        if float(short) == v:
            return short
        return str(int(v)) if v.is_integer() else repr(v)
    return str(v)


def _number(v):
    return f"{v:g}" if isinstance(v, float) else str(v)


@dataclass(frozen=True)
class Param:
    """One engine parameter: its type, default and the range every value must lie in (the
    spec is the only way values enter an engine, so this is where they are checked)."""
    name: str
    kind: type            # int, float, bool or str
    default: object
    help: str
    minimum: float = None
    choices: tuple = None
    maximum: float = None
    valid: object = None  # a further check of a value, raising a RoostError that names the fault

    def convert(self, engine, text):
        """The value of ``text`` (a spec's or a protocol option's), checked."""
        try:
            if self.choices is not None:
                if text not in self.choices:
                    raise ValueError
                return text
            if self.kind is bool:
                low = text.lower()
                if low in ("1", "true", "yes", "on"):
                    return True
                if low in ("0", "false", "no", "off"):
                    return False
                raise ValueError
            value = self.kind(text)
        except ValueError:
            raise self._wrong(engine, text) from None
        return self._accepted(engine, self._in_range(engine, value, text))

    def check(self, engine, value):
        """``value`` (a Python value) as this parameter's type, checked as a text is."""
        if self.kind is bool:
            if value in (0, 1) and not isinstance(value, float):
                return bool(value)
        elif self.kind is str:
            if isinstance(value, str) and (self.choices is None or value in self.choices):
                return self._accepted(engine, value)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            if self.kind is float:
                return self._in_range(engine, float(value), value)
            if isinstance(value, int):
                return self._in_range(engine, value, value)
        raise self._wrong(engine, value)

    def _accepted(self, engine, value):
        if self.valid is not None:
            try:
                self.valid(value)
            except EngineSpecError:
                raise
            except RoostError as e:
                raise EngineSpecError(f"engine '{engine}': {self.name}: {e}") from None
        return value

    def _wrong(self, engine, given):
        what = {int: "an integer", float: "a number", bool: "0 or 1"}.get(self.kind, "a value")
        if self.choices is not None:
            what = "one of " + ", ".join(self.choices)
        return EngineSpecError(f"engine '{engine}': {self.name} must be {what}, got {given!r}")

    def _in_range(self, engine, value, given):
        if self.kind is float and not math.isfinite(value):
            raise EngineSpecError(f"engine '{engine}': {self.name} must be a finite number, got {given!r}")
        if self.minimum is not None and value < self.minimum:
            raise EngineSpecError(f"engine '{engine}': {self.name} must be at least "
                                  f"{_number(self.minimum)}, got {given!r}")
        if self.maximum is not None and value > self.maximum:
            raise EngineSpecError(f"engine '{engine}': {self.name} must be at most "
                                  f"{_number(self.maximum)}, got {given!r}")
        return value


@dataclass(frozen=True)
class EngineSpec:
    """An engine kind (``engine_type``, its Engine class) and the value of every one of its
    parameters, in the kind's order (``values``: (name, value) pairs).  Made by reading a
    spec text (``roost.search.engines.parse_spec``) or from values (``EngineSpec.of``), every
    value checked against its parameter; the settings are read by name (``spec["depth"]``)."""
    engine_type: type
    values: tuple

    @classmethod
    def of(cls, engine_type, **settings):
        """The spec of ``engine_type`` with ``settings`` (the rest at their defaults), each
        checked; EngineSpecError names the fault."""
        kind = engine_type.kind
        by_name = {p.name: p for p in engine_type.params}
        for name in settings:
            if name not in by_name:
                known = ", ".join(by_name) or "none"
                raise EngineSpecError(f"engine '{kind}' has no parameter {name!r}; its parameters: {known}")
        # a default is a value of its own ("0: no limit" may lie outside the range), taken as it is
        return cls(engine_type, tuple(
            (p.name, p.check(kind, settings[p.name]) if settings.get(p.name, p.default) != p.default
             else p.default) for p in engine_type.params))

    @property
    def kind(self):
        return self.engine_type.kind

    @property
    def settings(self):
        """The settings by name (a new dict)."""
        return dict(self.values)

    def __getitem__(self, name):
        for key, value in self.values:
            if key == name:
                return value
        raise KeyError(f"engine '{self.kind}' has no parameter {name!r}")

    @property
    def external(self):
        """Whether the engine runs as a program of its own (``cmd:``), which the arena
        keeps from game to game and ends at the end."""
        return self.engine_type.external

    def text(self):
        """The canonical spec text: ``parse_spec(spec.text()) == spec``."""
        return self.engine_type.spec_text(self)

    __str__ = text

    def __repr__(self):
        return f"EngineSpec({self.text()!r})"

    def checked(self):
        """This spec, when its settings hold together and this machine can run it (its
        tree or table can be allocated); EngineSpecError names the fault.  Reading a spec
        text checks it, and so does building its engine."""
        return self.engine_type.check_spec(self)

    def replace(self, **changes):
        """This spec with ``changes`` (settings by name), each checked."""
        return EngineSpec.of(self.engine_type, **{**self.settings, **changes})

    def within(self, limit, state):
        """The spec of one search at ``state`` under ``limit`` (a Limit, or None): each
        limit given caps the setting the kind's ``budget`` names for it (the smaller wins;
        0 in a spec is no limit of its own); a clock's allotment caps the time.  An
        infinite limit first lifts the spec's own budget: the longest time, the deepest
        depth, no node limit."""
        if limit is None:
            return self
        if not isinstance(limit, Limit):
            raise TypeError(f"a search limit is a Limit, not {limit!r}")
        settings = self.settings
        budget = self.engine_type.budget
        if limit.infinite:
            params = {p.name: p for p in self.engine_type.params}
            for what, key in budget.items():
                longest = params[key].maximum
                settings[key] = type(settings[key])(
                    0 if what == "nodes" else UNTIL_STOPPED if longest is None else longest)
        for what, value in (("time", limit.seconds(state)), ("nodes", limit.nodes), ("depth", limit.depth)):
            key = budget.get(what)
            if key is None or value is None:
                continue
            value = type(settings[key])(value)
            settings[key] = value if not settings[key] else min(settings[key], value)
        return EngineSpec(self.engine_type, tuple(settings.items()))

    def engine(self):
        """A new engine of this spec."""
        return self.engine_type(self)
