"""The real-program benchmark suite (bench/programs) gives NumPy's results under lazynum:
every program at a tiny size, in this process, on the backend the fixture selects."""
import numpy
import pytest

import lazynum
from bench.programs import PROGRAMS, mismatch, to_numpy


def test_suite_covers_at_least_fifteen_programs():
    assert len(PROGRAMS) >= 15


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_program_matches_numpy(name):
    program = PROGRAMS[name]
    inputs = program.make_inputs(program.tiny, tiny=True)
    want = to_numpy(program(numpy, program.tiny, inputs, tiny=True))
    got = to_numpy(program(lazynum, program.tiny, inputs, tiny=True))
    assert mismatch(got, want, program.rtol, program.atol) == ""
