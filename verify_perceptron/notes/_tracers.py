"""Stand-ins that record arithmetic on a claim's quantities: as Python source, as integer postfix code, as units.

A `verify_perceptron.notes.claims.Claim` is two plain functions of its
quantities. Called on these stand-ins instead of numbers, a side reveals its
arithmetic: `Traced` writes it as Python source (the checker's compiled
slacks), `Code` as the postfix program the C replay runs, and `UnitValue`
works out its unit, so that `verify_perceptron.notes.claims` can refuse a
claim that is not homogeneous.

Examples
--------
>>> (Traced("w_sq") - 2 * Traced("N")).source
'(w_sq - (2 * N))'
>>> (UnitValue((2, 2, 0)) * UnitValue((0, 0, 2))).unit
(2, 2, 2)
"""

from __future__ import annotations

import contextvars

import math
from fractions import Fraction

__all__ = ["Traced", "Code", "UnitValue", "Unit", "OPS", "INT64"]


class Traced:
    """Arithmetic on names, recorded as Python source (how `compile_slacks` reads a claim)."""

    def __init__(self, source: str) -> None:
        self.source = source

    @staticmethod
    def of(value: object) -> str:
        if isinstance(value, Traced):
            return value.source
        if isinstance(value, int) and not isinstance(value, bool):
            return repr(value)
        if isinstance(value, Fraction):
            return f"_F({value.numerator}, {value.denominator})"
        raise TypeError(f"claims may combine quantities with integers and Fractions only, not {value!r}")

    def _op(self, op: str, other: object, reflected: bool = False) -> Traced:
        left, right = (self.of(other), self.source) if reflected else (self.source, self.of(other))
        return Traced(f"({left} {op} {right})")

    def __add__(self, other: object) -> Traced:
        return self._op("+", other)

    def __radd__(self, other: object) -> Traced:
        return self._op("+", other, True)

    def __sub__(self, other: object) -> Traced:
        return self._op("-", other)

    def __rsub__(self, other: object) -> Traced:
        return self._op("-", other, True)

    def __mul__(self, other: object) -> Traced:
        return self._op("*", other)

    def __rmul__(self, other: object) -> Traced:
        return self._op("*", other, True)

    def __truediv__(self, other: object) -> Traced:
        # Exact division: an int numerator becomes a Fraction first, never a float.
        return Traced(f"(_F({self.source}) / {self.of(other)})")

    def __rtruediv__(self, other: object) -> Traced:
        return Traced(f"(_F({self.of(other)}) / {self.source})")

    def __pow__(self, other: object) -> Traced:
        return self._op("**", other)

    def __neg__(self) -> Traced:
        return Traced(f"(-{self.source})")

    def __abs__(self) -> Traced:
        return Traced(f"abs({self.source})")


#: The operations of a claims program (`compile_program`), as the C replay numbers them
#: (`verify_perceptron/check/_replay.c`, enum OP_*): postfix code, one slack left per END.
OPS: dict[str, int] = {"end": 0, "quantity": 1, "constant": 2, "+": 3, "-": 4, "*": 5, "neg": 6, "**": 7}

#: A program's constants are int64: -INT64 <= c < INT64.
INT64 = 2**63
#: The bound on a program's constants while one is compiled: INT64 for the C replay, None (any int) for
#: the replay in Python integers (`compile_program(..., any_constant=True)`).
CONSTANT_LIMIT: contextvars.ContextVar[int | None] = contextvars.ContextVar("CONSTANT_LIMIT", default=INT64)


class Code:
    """A traced value as postfix code computing ``scale`` times it, in integers only."""

    def __init__(self, code: list[int], scale: int) -> None:
        self.code, self.scale = code, scale

    @staticmethod
    def of(value: object) -> Code:
        if isinstance(value, Code):
            return value
        limit = CONSTANT_LIMIT.get()
        if isinstance(value, int) and not isinstance(value, bool) and (limit is None or -limit <= value < limit):
            return Code([OPS["constant"], value], 1)
        raise ValueError(f"a claims program takes quantities and int64 constants, not {value!r}")

    def _scaled(self, factor: int) -> list[int]:
        """Code for factor·(scale·value)."""
        if factor == 1:
            return self.code
        return self.code + Code.of(factor).code + [OPS["*"]]

    def _sum(self, other: object, op: str, reflected: bool = False) -> Code:
        left, right = (Code.of(other), self) if reflected else (self, Code.of(other))
        scale = math.lcm(left.scale, right.scale)  # a common multiple makes both sides whole
        return Code(left._scaled(scale // left.scale) + right._scaled(scale // right.scale) + [OPS[op]], scale)

    def __add__(self, other: object) -> Code:
        return self._sum(other, "+")

    def __radd__(self, other: object) -> Code:
        return self._sum(other, "+", True)

    def __sub__(self, other: object) -> Code:
        return self._sum(other, "-")

    def __rsub__(self, other: object) -> Code:
        return self._sum(other, "-", True)

    def __mul__(self, other: object) -> Code:
        right = Code.of(other)
        return Code(self.code + right.code + [OPS["*"]], self.scale * right.scale)

    def __rmul__(self, other: object) -> Code:
        return self.__mul__(other)

    def __pow__(self, other: object) -> Code:
        if not isinstance(other, int) or isinstance(other, bool) or not 1 <= other <= 16:
            raise ValueError(f"a claims program raises to powers 1..16 only, not {other!r}")
        return Code(self.code + [OPS["**"], other], self.scale**other)

    def __neg__(self) -> Code:
        return Code(self.code + [OPS["neg"]], self.scale)

    def __truediv__(self, other: object) -> Code:
        raise ValueError("a claims program has no division")

    def __abs__(self) -> Code:
        raise ValueError("a claims program has no absolute value")

    __rtruediv__ = __truediv__



Unit = tuple[int, int, int]


class UnitValue:
    """A traced value's unit (p, q, r) of `UNITS`; sums of different units are refused."""

    def __init__(self, unit: Unit | None) -> None:
        self.unit = unit  # None: the number 0, which has every unit

    @staticmethod
    def of(value: object) -> UnitValue:
        if isinstance(value, UnitValue):
            return value
        if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
            return UnitValue(None if value == 0 else (0, 0, 0))  # a number is unitless; 0 is any unit
        raise ValueError(f"claims combine quantities with integers and Fractions only, not {value!r}")

    def _sum(self, other: object) -> UnitValue:
        right = UnitValue.of(other)
        if self.unit is None or right.unit is None:
            return right if self.unit is None else self
        if right.unit != self.unit:
            raise ValueError(f"a claim adds a quantity of unit {self.unit} to one of unit {right.unit}")
        return self

    __add__ = __radd__ = __sub__ = __rsub__ = _sum

    def __mul__(self, other: object) -> UnitValue:
        right = UnitValue.of(other)
        if self.unit is None or right.unit is None:
            return UnitValue(None)
        return UnitValue((self.unit[0] + right.unit[0], self.unit[1] + right.unit[1], self.unit[2] + right.unit[2]))

    __rmul__ = __mul__

    def __truediv__(self, other: object) -> UnitValue:
        right = UnitValue.of(other)
        if right.unit is None:
            raise ValueError("a claim divides by zero")
        if self.unit is None:
            return self
        return UnitValue((self.unit[0] - right.unit[0], self.unit[1] - right.unit[1], self.unit[2] - right.unit[2]))

    def __rtruediv__(self, other: object) -> UnitValue:
        return UnitValue.of(other) / self

    def __pow__(self, other: object) -> UnitValue:
        if not isinstance(other, int) or isinstance(other, bool):
            raise ValueError(f"a claim raises to integer powers only, not {other!r}")
        if self.unit is None:
            return self
        return UnitValue((other * self.unit[0], other * self.unit[1], other * self.unit[2]))

    def __neg__(self) -> UnitValue:
        return self

    __abs__ = __neg__
