"""XXH64, the pattern database files' checksum from format version 2: the published values of
xxHash, and any bytes in any pieces against a plain-Python XXH64 written from its
specification (``tests/xxh64_reference.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from fastpuzzle._core._checksum import Xxh64
from tests.xxh64_reference import xxh64

# Values published with xxHash and its ports (seed 0 unless given).
PUBLISHED = [
    (b"", 0, 0xEF46DB3751D8E999),
    (b"", 42, 0x98B1582B0977E704),
    (b"a", 0, 0xD24EC4F1A98C6E5B),
    (b"abc", 0, 0x44BC2CF5AD770999),
    (b"hello there", 0, 0x08F296AF889A203C),
    (b"abcdefghijklmnopqrstuvwxyz12345", 0, 0x467605901B01D6F6),
    (b"abcdefghijklmnopqrstuvwxyz12345", 877380273, 0x37B562EC5715E132),
    (b"The quick brown fox jumps over the lazy dog", 0, 0x0B242D361FDA71BC),
    (b"Nobody inspects the spammish repetition", 0, 0xFBCEA83C8A378BF1),
]


@pytest.mark.parametrize(("data", "seed", "value"), PUBLISHED)
def test_published_values(data: bytes, seed: int, value: int) -> None:
    digest = Xxh64(seed)
    digest.update(data)
    assert digest.intdigest() == value
    assert digest.hexdigest() == f"{value:016x}"
    assert xxh64(data, seed) == value  # the reference agrees with them too


def test_any_bytes_in_any_pieces() -> None:
    rng = np.random.default_rng(55)
    # Lengths around the 32-byte stripes, and past the 64 KiB from which the GIL is released.
    for size in [1, 7, 8, 31, 32, 33, 63, 64, 100, 1000, 70_001]:
        data = rng.integers(0, 256, size, dtype=np.uint8)
        whole = Xxh64()
        whole.update(data)
        pieces = Xxh64()
        cuts = np.sort(rng.integers(0, size + 1, 5))
        for begin, end in zip([0, *cuts], [*cuts, size]):
            pieces.update(memoryview(data.tobytes())[begin:end])
        assert whole.intdigest() == pieces.intdigest() == xxh64(data.tobytes()), size


def test_the_digest_runs_on() -> None:
    # Like hashlib's: reading the digest does not end the hash.
    digest = Xxh64()
    digest.update(b"The quick brown fox ")
    assert digest.intdigest() == xxh64(b"The quick brown fox ")
    digest.update(b"jumps over the lazy dog")
    assert digest.intdigest() == 0x0B242D361FDA71BC
