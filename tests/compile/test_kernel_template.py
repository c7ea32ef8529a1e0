"""Kernel templates: kernels that differ only in program sizes, strides and integer
constants of their index math get one name; anything else gets another."""
import numpy as np

from lazynum.compile import index_expr as ix
from lazynum.compile.kernel_ir import Buffer, Kernel, Loop, Phase, Stmt, Store
from lazynum.compile.kernel_template import canonical_text, templatize

F64 = np.dtype(np.float64)


def update(offset, row_stride, extent, inner=ix.var(1)):
    """``out[i, j] = 2 * a[offset + row_stride*i + inner]`` over ``extent`` x ``n1``."""
    a = Buffer("in0", F64, "input", (5, 5), 0)
    out = Buffer("v1", F64, "output", (5, 5), 1)
    address = ix.as_index(offset) + ix.var(0) * row_stride + inner
    body = [Stmt("%0", "load", ("in0", address), F64, "getitem"),
            Stmt("%1", "const", (2.0,), F64),
            Stmt("%2", "multiply", ("%0", "%1"), F64, "multiply at prog.py:3")]
    store = Store("v1", ix.var(0) * ix.slot(1) + ix.var(1), "%2")
    return Kernel("k0", [a, out], [Loop(0, ix.as_index(extent)), Loop(1, ix.slot(1))],
                  [Phase([], body, [], [store])], ["multiply at prog.py:3"])


def test_kernels_differing_in_sizes_and_constants_share_a_template():
    first, first_bindings = templatize(update(3, ix.slot(4), 7))
    second, second_bindings = templatize(update(9, ix.slot(6), 5))
    assert first.name == second.name
    assert canonical_text(first) == canonical_text(second)
    assert first_bindings == (("c", 7), ("s", 1), ("c", 3), ("s", 4))
    assert second_bindings == (("c", 5), ("s", 1), ("c", 9), ("s", 6))


def test_a_unit_stride_stays_in_the_code_so_the_loop_still_vectorizes():
    template, _ = templatize(update(3, ix.slot(4), 7))
    load = template.phases[0].body[0]
    assert (((("v", 1),), 1)) in load.args[1].terms
    strided, _ = templatize(update(3, ix.slot(4), 7, inner=ix.var(1) * 2))
    assert strided.name != template.name        # a stride of 2 is a parameter: other code


def test_structure_values_that_are_code_and_program_atoms_map_alike():
    base, _ = templatize(update(3, ix.slot(4), 7))
    other_op = update(3, ix.slot(4), 7)
    other_op.phases[0].body[2] = Stmt("%2", "add", ("%0", "%1"), F64)
    other_const = update(3, ix.slot(4), 7)
    other_const.phases[0].body[1] = Stmt("%1", "const", (3.0,), F64)
    names = {base.name, templatize(other_op)[0].name, templatize(other_const)[0].name}
    assert len(names) == 3
    # one program slot used twice is one parameter; two slots are two: other code
    same_slot, bindings = templatize(update(ix.slot(1), ix.slot(1), 7))
    assert bindings.count(("s", 1)) == 1
    assert same_slot.name != templatize(update(ix.slot(2), ix.slot(1), 7))[0].name


def test_floor_division_keeps_its_constants_in_the_code():
    def reshaped(divisor):
        kernel = update(0, ix.slot(4), 7)
        index = ix.Index([((("div", ix.var(1), ix.as_index(divisor)),), 1)])
        kernel.phases[0].body[0] = Stmt("%0", "load", ("in0", index), F64)
        return templatize(kernel)[0].name
    assert reshaped(3) == reshaped(3) != reshaped(4)
