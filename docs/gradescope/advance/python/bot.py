"""A skeleton Advance bot: reads the board, writes it back. Put the move logic in `play`."""
import sys


def play(board, side):
    """Returns the board after `side`'s move. The skeleton makes none."""
    return board


def main(args):
    if args == ["name"]:
        print("Skeleton")
        return 0
    if len(args) != 3 or args[0] not in ("white", "black"):
        print("usage: run white|black INPUT OUTPUT, or run name", file=sys.stderr)
        return 2
    side, source, target = args
    try:
        with open(source) as f:
            board = f.read().splitlines()
    except OSError as e:
        print(f"cannot read {source}: {e}", file=sys.stderr)
        return 1
    if len(board) != 9 or any(len(row) != 9 for row in board):
        print(f"{source} is not a 9x9 board", file=sys.stderr)
        return 1
    board = play(board, side)
    with open(target, "w") as f:
        f.write("\n".join(board) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
