"""From a cut of the pending graph to backend-neutral kernels.

``cut`` (what a backend compiles: nodes, leaves, sizes as static ints or run-time slots)
-> ``schedule`` (which nodes get buffers, which share a kernel; refused fusions recorded)
-> ``lowering`` (each kernel spec becomes ``kernel_ir.Kernel``: loops, scalar statements,
loads/stores through ``index_expr`` index math; ``loop_collapse`` merges loops that
addresses walk as one).  The CPU backend (``lazynum.backends.llvm``) generates LLVM IR from
the kernel IR; a GPU backend would print CUDA from the same IR.
"""
