"""The CUDA tests choose their backend themselves: the suite-wide ``backend`` fixture (every
test on llvm and numpy) is replaced by one that runs each test once."""
import pytest


@pytest.fixture(autouse=True)
def backend():
    yield "llvm"
