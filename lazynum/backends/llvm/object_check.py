"""Bounds checks of ELF relocatable object code before LLVM's loader reads a byte of it.

LLVM's loader (RuntimeDyld, behind llvmlite's ``add_object_file``) trusts its input: object
code whose section table was cut off, or whose offsets and sizes point past its end, makes it
read and write out of bounds and kill the process.  ``check`` verifies with Python slicing
alone that the ELF header matches the object code this process emits, and that every section,
string table, symbol and relocation lies inside the data and refers to things that exist.

It is a bounds check: truncation and inflated length or offset fields are refused.  It does
not prove that code with flipped bits is sound (that is what the disk cache's digests detect)
nor defend against crafted objects (see the trust model in ``lazynum.runtime.disk_cache``).
"""
from __future__ import annotations

import struct

__all__ = ["check"]

# e_ident, type, machine, version, entry, phoff, shoff, flags, ehsize, phentsize, phnum,
# shentsize, shnum, shstrndx (ELF64, little-endian: the hosts llvmlite's MCJIT runs on here)
_HEADER = struct.Struct("<16sHHIQQQIHHHHHH")
# name, type, flags, addr, offset, size, link, info, addralign, entsize
_SECTION = struct.Struct("<IIQQQQIIQQ")
_SYMBOL = struct.Struct("<IBBHQQ")        # name, info, other, shndx, value, size
_RELA = struct.Struct("<QQq")             # offset, info, addend
_REL = struct.Struct("<QQ")               # offset, info
SHT_SYMTAB, SHT_STRTAB, SHT_RELA, SHT_NOBITS, SHT_REL = 2, 3, 4, 8, 9
SHN_LORESERVE, SHN_ABS, SHN_COMMON = 0xFF00, 0xFFF1, 0xFFF2
EM_X86_64 = 62
# x86-64 relocation types that patch 8 bytes (R_X86_64_64, DTPMOD64, DTPOFF64, TPOFF64, PC64,
# GOTOFF64, GOT64, GOTPCREL64, GOTPC64, GOTPLT64, PLTOFF64, SIZE64, RELATIVE64); the others
# patch at most 4
_EIGHT_BYTE_X86_64 = {1, 16, 17, 18, 24, 25, 27, 28, 29, 30, 31, 33, 38}


def _within(data: bytes, offset: int, size: int, what: str) -> None:
    if offset > len(data) or size > len(data) - offset:
        raise ValueError(f"{what} ({size} bytes at offset {offset}) lies past the end of the "
                         f"{len(data)}-byte object (truncated or corrupt)")


def check(data: bytes, reference: bytes) -> None:
    """Raise ValueError unless `data` is in-bounds ELF object code like `reference`.

    Parameters
    ----------
    data : bytes
        The object code to be handed to LLVM.
    reference : bytes
        Object code this process emitted (at least its ELF header): class, byte order,
        machine, type and entry sizes must equal it.
    """
    if len(data) < _HEADER.size:
        raise ValueError(f"object code of {len(data)} bytes is shorter than an ELF header")
    if len(reference) < _HEADER.size or reference[:6] != b"\x7fELF\x02\x01":
        raise ValueError("this host's object code is not little-endian ELF64: not checkable")
    (ident, kind, machine, version, _, _, shoff, flags, ehsize, _, phnum, shentsize, shnum,
     shstrndx) = _HEADER.unpack_from(data)
    expected = _HEADER.unpack_from(reference)
    if ((ident[:9], kind, machine, version, flags, ehsize, shentsize)
            != (expected[0][:9], *expected[1:4], expected[7], expected[8], expected[11])):
        raise ValueError("ELF header differs from the object code this process emits")
    if phnum or shentsize != _SECTION.size or not 0 < shnum < SHN_LORESERVE or shstrndx >= shnum:
        raise ValueError(f"implausible ELF header ({phnum} program headers, {shnum} sections, "
                         f"section name table {shstrndx})")
    _within(data, shoff, shnum * shentsize, "the section table")
    sections = [_SECTION.unpack_from(data, shoff + i * shentsize) for i in range(shnum)]
    for i, (_, sh_type, _, _, offset, size, link, _, _, _) in enumerate(sections):
        if sh_type != SHT_NOBITS:
            _within(data, offset, size, f"section {i}")
        if link >= shnum:
            raise ValueError(f"section {i} links to section {link} of {shnum}")
    names = _string_table(data, sections, shstrndx)
    for i, section in enumerate(sections):
        if section[0] >= names:
            raise ValueError(f"section {i}'s name lies outside the section name table")
        if section[1] == SHT_SYMTAB:
            _check_symbols(data, sections, i)
        elif section[1] in (SHT_RELA, SHT_REL):
            _check_relocations(data, sections, i, machine)


def _string_table(data: bytes, sections: list, index: int) -> int:
    """The size of string table section `index` (checked to end with a NUL)."""
    _, sh_type, _, _, offset, size, _, _, _, _ = sections[index]
    if sh_type != SHT_STRTAB or size == 0 or data[offset + size - 1] != 0:
        raise ValueError(f"section {index} is not a NUL-terminated string table")
    return size


def _entries(sections: list, index: int, entry: struct.Struct) -> int:
    _, _, _, _, _, size, _, _, _, entsize = sections[index]
    if entsize != entry.size or size % entry.size:
        raise ValueError(f"section {index} has entries of {entsize} bytes, not {entry.size}")
    return size // entry.size


def _check_symbols(data: bytes, sections: list, index: int) -> None:
    count = _entries(sections, index, _SYMBOL)
    _, _, _, _, offset, _, link, _, _, _ = sections[index]
    names = _string_table(data, sections, link)
    for k in range(count):
        name, _, _, shndx, _, _ = _SYMBOL.unpack_from(data, offset + k * _SYMBOL.size)
        if name >= names or (len(sections) <= shndx < SHN_LORESERVE) or (
                shndx >= SHN_LORESERVE and shndx not in (SHN_ABS, SHN_COMMON)):
            raise ValueError(f"symbol {k} of section {index} names a string or section that "
                             "does not exist")


def _check_relocations(data: bytes, sections: list, index: int, machine: int) -> None:
    _, sh_type, _, _, offset, _, link, target, _, _ = sections[index]
    entry = _RELA if sh_type == SHT_RELA else _REL
    count = _entries(sections, index, entry)
    if sections[link][1] != SHT_SYMTAB or not 0 < target < len(sections):
        raise ValueError(f"relocation section {index} refers to no symbol table or section")
    symbols = _entries(sections, link, _SYMBOL)
    target_size = sections[target][5]
    for k in range(count):
        where, info = entry.unpack_from(data, offset + k * entry.size)[:2]
        width = 8 if machine == EM_X86_64 and (info & 0xFFFFFFFF) in _EIGHT_BYTE_X86_64 else 4
        if (info >> 32) >= symbols or where > target_size - width:
            raise ValueError(f"relocation {k} of section {index} lies outside its section "
                             "or names a symbol that does not exist")
