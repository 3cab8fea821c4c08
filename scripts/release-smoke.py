"""The installed Python package, away from the source tree: a solve, a grade
and the PettingZoo environment. scripts/release-check.sh runs it in an empty
folder with the interpreter of a fresh virtual environment holding only the
wheel and its [env] extra; it prints one line and exits 0, or fails."""

import pathlib
import sys

import stakeraid
from stakeraid.env import env

here = pathlib.Path.cwd().resolve()
package = pathlib.Path(stakeraid.__file__).resolve()
assert pathlib.Path(sys.prefix).resolve() in package.parents, f"imported from {package}"

# A solve: the assignment's first example.
example = "3\nMINIMAX\nO\n2\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n"
assert stakeraid.solve_text(example) == "B3 Stake\nX..\n...\n.O.\n", stakeraid.solve_text(example)
position = stakeraid.Position.from_input(example)
assert str(stakeraid.analyse(position, depth=2).best) == "B3 Stake"

# A grade: a homework that answers through the package itself passes every case.
homework = here / "homework.py"
homework.write_text(
    "import stakeraid\n"
    "text = open('input.txt').read()\n"
    "open('output.txt', 'w').write(stakeraid.solve_text(text))\n"
)
report = stakeraid.grade([sys.executable, str(homework)], cases=3, time_limit=4, jobs=1)
assert report["strict"]["points"] == 100, report

# The environment: one whole game of legal random moves.
game = env(size=3)
game.reset(seed=1)
moves = 0
for agent in game.agent_iter():
    observation, reward, terminated, truncated, info = game.last()
    over = terminated or truncated
    action = None if over else game.action_space(agent).sample(info["action_mask"])
    moves += action is not None
    game.step(action)
assert moves == 9, moves

print(f"release-smoke.py: stakeraid {package.parent} solves, grades and plays")
