"""Random positions, for the tests and for the scripts that time the
package (which import this file without pytest)."""

import stakeraid


def random_position(rng, n, empties):
    """A position of side n with `empties` empty cells, values 0..99."""
    cells = [rng.choice("XO") for _ in range(n * n - empties)] + ["."] * empties
    rng.shuffle(cells)
    values = [[rng.randint(0, 99) for _ in range(n)] for _ in range(n)]
    rows = ["".join(cells[r * n:(r + 1) * n]) for r in range(n)]
    return stakeraid.Position(values, rows, rng.choice("XO"))
