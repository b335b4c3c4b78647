"""
arbiter's stand-in for the chess assignment's support module (CSSE1001/CSSE7030
Assignment 1, Semester 2 2021), written from the behaviour its docstrings and the
assignment describe. Graders who have the course's own copy pass it with
`--support a1_support.py`.

MIT licence. Part of arbiter.
"""
from typing import Optional, Tuple

# Pieces, as the assignment encodes them (Section 4.1).
WHITE_PAWN, WHITE_KING, WHITE_QUEEN = "P", "K", "Q"
WHITE_BISHOP, WHITE_KNIGHT, WHITE_ROOK = "B", "N", "R"
BLACK_PAWN, BLACK_KING, BLACK_QUEEN = "p", "k", "q"
BLACK_BISHOP, BLACK_KNIGHT, BLACK_ROOK = "b", "n", "r"
EMPTY = "."

# The back row from left to right, then the pawn: the first eight joined are a
# player's back row in a new game.
WHITE_PIECES = (
    WHITE_ROOK, WHITE_KNIGHT, WHITE_BISHOP, WHITE_QUEEN,
    WHITE_KING, WHITE_BISHOP, WHITE_KNIGHT, WHITE_ROOK, WHITE_PAWN,
)
BLACK_PIECES = tuple(piece.lower() for piece in WHITE_PIECES)

BOARD_SIZE = 8

HELP_MESSAGE = (
    "\nWelcome to Chess!\n"
    "When it's your turn, enter one of the following:\n"
    "1) 'h' or 'H': Print the help menu\n"
    "2) 'q' or 'Q': Quit the game\n"
    "3) position1 position2: The positions (as letterNumber) to move from "
    "and to respectively.\n"
)

# Directions, as (row, column) steps.
ROOK_DELTAS = ((0, 1), (1, 0), (0, -1), (-1, 0))
BISHOP_DELTAS = ((-1, -1), (1, 1), (-1, 1), (1, -1))
QUEEN_DELTAS = KING_DELTAS = ROOK_DELTAS + BISHOP_DELTAS
KNIGHT_DELTAS = ((1, 2), (2, 1), (-2, 1), (1, -2), (-1, 2), (2, -1), (-1, -2), (-2, -1))

Board = Tuple[str, str, str, str, str, str, str, str]
Position = Tuple[int, int]
Move = Tuple[Position, Position]


def pawn_attacking_deltas(is_white: bool) -> Tuple[Tuple[int, int], Tuple[int, int]]:
    """The steps from a pawn to the two squares it attacks."""
    step = -1 if is_white else 1
    return ((step, -1), (step, 1))


def out_of_bounds(position: Position) -> bool:
    """True iff position is not on the board."""
    row, col = position
    return not (0 <= row < BOARD_SIZE and 0 <= col < BOARD_SIZE)


def piece_at_position(position: Position, board: Board) -> str:
    """The character at position on board."""
    return board[position[0]][position[1]]


def valid_position_format(position: str) -> bool:
    """True iff position is a letter a-h (either case) then a digit 1-8."""
    return (len(position) == 2 and "a" <= position[0].lower() <= "h"
            and "1" <= position[1] <= "8")


def valid_move_format(move: str) -> bool:
    """True iff move is two positions separated by one space."""
    origin, _, destination = move.partition(" ")
    return valid_position_format(origin) and valid_position_format(destination)


def find_piece(piece: str, board: Board) -> Optional[Position]:
    """The first position holding piece (by row, then column), or None."""
    for row in range(len(board)):
        col = board[row].find(piece)
        if col >= 0:
            return (row, col)
    return None


def _colour(piece: str) -> Optional[bool]:
    """True for a white piece, False for a black one, None for an empty square."""
    if piece == EMPTY:
        return None
    return piece in WHITE_PIECES


def get_pawn_moves(position: Position, board: Board, piece: str) -> Tuple[Position, ...]:
    """The positions the pawn (WHITE_PAWN or BLACK_PAWN) at position can reach."""
    white = piece == WHITE_PAWN
    step = -1 if white else 1
    start_row = BOARD_SIZE - 2 if white else 1
    row, col = position
    moves = ()
    ahead = (row + step, col)
    if not out_of_bounds(ahead) and piece_at_position(ahead, board) == EMPTY:
        moves += (ahead,)
    for d_row, d_col in pawn_attacking_deltas(white):
        target = (row + d_row, col + d_col)
        if not out_of_bounds(target) and _colour(piece_at_position(target, board)) is (not white):
            moves += (target,)
    two = (row + 2 * step, col)
    if (row == start_row and not out_of_bounds(two)
            and piece_at_position(ahead, board) == EMPTY
            and piece_at_position(two, board) == EMPTY):
        moves += (two,)
    return moves


def get_possible_moves(position: Position, board: Board) -> Tuple[Position, ...]:
    """Every position the piece at position can reach in one move, ignoring check."""
    piece = piece_at_position(position, board)
    colour = _colour(piece)
    if colour is None:
        return ()
    if piece.lower() == BLACK_PAWN:
        return get_pawn_moves(position, board, piece)
    kind = piece.lower()
    slides = kind in (BLACK_ROOK, BLACK_BISHOP, BLACK_QUEEN)
    deltas = {
        BLACK_KING: KING_DELTAS, BLACK_KNIGHT: KNIGHT_DELTAS, BLACK_ROOK: ROOK_DELTAS,
        BLACK_BISHOP: BISHOP_DELTAS, BLACK_QUEEN: QUEEN_DELTAS,
    }[kind]
    moves = ()
    for d_row, d_col in deltas:
        row, col = position
        while True:
            row, col = row + d_row, col + d_col
            if out_of_bounds((row, col)):
                break
            other = _colour(board[row][col])
            if other is colour:
                break
            moves += ((row, col),)
            if other is not None or not slides:
                break
    return moves


def is_in_check(board: Board, whites_turn: bool) -> bool:
    """True iff the player whose turn it is has their king attacked."""
    king = find_piece(WHITE_KING if whites_turn else BLACK_KING, board)
    if king is None:
        return False
    for row in range(BOARD_SIZE):
        for col in range(BOARD_SIZE):
            if _colour(board[row][col]) is (not whites_turn) and king in get_possible_moves((row, col), board):
                return True
    return False
