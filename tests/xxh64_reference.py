"""A plain-Python XXH64, written from xxHash's specification (``doc/xxhash_spec.md``),
independently of :mod:`fastpuzzle._core._checksum`, so that tests can check the compiled one on
any bytes. Nothing here is fast (about 1 MB a second)."""

from __future__ import annotations

_MASK = (1 << 64) - 1
_P1 = 0x9E3779B185EBCA87
_P2 = 0xC2B2AE3D27D4EB4F
_P3 = 0x165667B19E3779F9
_P4 = 0x85EBCA77C2B2AE63
_P5 = 0x27D4EB2F165667C5


def _rotl(value: int, bits: int) -> int:
    return ((value << bits) | (value >> (64 - bits))) & _MASK


def _round(acc: int, lane: int) -> int:
    return _rotl((acc + lane * _P2) & _MASK, 31) * _P1 & _MASK


def _word(data: bytes, at: int, size: int) -> int:
    return int.from_bytes(data[at : at + size], "little")


def xxh64(data: bytes, seed: int = 0) -> int:
    """The XXH64 of ``data`` with ``seed``."""
    at, size = 0, len(data)
    if size >= 32:
        lanes = [(seed + _P1 + _P2) & _MASK, (seed + _P2) & _MASK, seed, (seed - _P1) & _MASK]
        while at + 32 <= size:
            lanes = [_round(lane, _word(data, at + 8 * k, 8)) for k, lane in enumerate(lanes)]
            at += 32
        h = sum(_rotl(lane, bits) for lane, bits in zip(lanes, (1, 7, 12, 18))) & _MASK
        for lane in lanes:
            h = ((h ^ _round(0, lane)) * _P1 + _P4) & _MASK
    else:
        h = (seed + _P5) & _MASK
    h = (h + size) & _MASK
    while at + 8 <= size:
        h = (_rotl(h ^ _round(0, _word(data, at, 8)), 27) * _P1 + _P4) & _MASK
        at += 8
    if at + 4 <= size:
        h = (_rotl(h ^ (_word(data, at, 4) * _P1 & _MASK), 23) * _P2 + _P3) & _MASK
        at += 4
    while at < size:
        h = _rotl(h ^ (data[at] * _P5 & _MASK), 11) * _P1 & _MASK
        at += 1
    h = (h ^ (h >> 33)) * _P2 & _MASK
    h = (h ^ (h >> 29)) * _P3 & _MASK
    return h ^ (h >> 32)
