"""A starting Pente agent for CSCI561's protocol: reads input.txt in the folder it is started
in, writes one point to output.txt. It plays the empty point nearest the centre, which is
always legal (White's first stone on 10K, its second within 3 points of it) and never good:
replace `choose` with your search."""

COLUMNS = "ABCDEFGHJKLMNOPQRST"  # no I


def choose(board):
    """The (row, column) to play: row 0 is the top line of the board (row 19)."""
    return min((abs(r - 9) + abs(c - 9), r, c) for r in range(19) for c in range(19) if board[r][c] == ".")[1:]


def main():
    lines = open("input.txt").read().splitlines()
    # Line 1 the colour to play, line 2 the time left, line 3 the captures, then 19 lines.
    board = lines[3:22]
    r, c = choose(board)
    with open("output.txt", "w") as out:
        out.write("%d%s\n" % (19 - r, COLUMNS[c]))


if __name__ == "__main__":
    main()
