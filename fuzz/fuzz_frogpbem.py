"""A bounded atheris (libFuzzer) run over the loader, the notation parsers, proofs, verify,
the mail readers and the drawing of mailed view files.

    ./run fuzz [RUNS]        (default 20000 executions per target)

A crash (any exception but a FrogPbemError) stops the run, prints the input,
and leaves it as ``crash-*`` in the current folder.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from fuzz.targets import (
        RULESETS,
        SAMPLE,
        SAMPLE_MAIL,
        SAMPLE_VIEW,
        load_bytes,
        parse_notation,
        parse_proof,
        read_mail,
        show_view,
        verify_bytes,
    )


def _damaged(provider: atheris.FuzzedDataProvider, sample: bytes) -> bytes:
    """``sample`` with one to four bytes set to what the fuzzer chooses."""
    damaged = bytearray(sample)
    for _ in range(provider.ConsumeIntInRange(1, 4)):
        where = provider.ConsumeIntInRange(0, len(damaged) - 1)
        damaged[where] = provider.ConsumeIntInRange(0, 255)
    return bytes(damaged)


def one_input(data: bytes) -> None:
    provider = atheris.FuzzedDataProvider(data)
    target = provider.ConsumeIntInRange(0, 6)
    if target == 0:
        load_bytes(provider.ConsumeBytes(provider.remaining_bytes()))
    elif target == 1:  # a valid file with a few bytes changed
        damaged = _damaged(provider, SAMPLE)
        if provider.ConsumeBool():
            verify_bytes(damaged)
        else:
            load_bytes(damaged)
    elif target == 2:
        rules = RULESETS[provider.ConsumeIntInRange(0, len(RULESETS) - 1)]
        parse_notation(rules, provider.ConsumeUnicodeNoSurrogates(60))
    elif target == 3:
        parse_proof("frogpbem-fork-proof 1\n" + provider.ConsumeUnicodeNoSurrogates(600))
    elif target == 5:  # a mailed reply, a few bytes changed
        read_mail(_damaged(provider, SAMPLE_MAIL))
    elif target == 6:  # a mailed view file, a few bytes changed
        show_view(_damaged(provider, SAMPLE_VIEW))
    else:
        load_bytes(b"frogpbem: 2\n" + provider.ConsumeBytes(provider.remaining_bytes()))


def main() -> None:
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
