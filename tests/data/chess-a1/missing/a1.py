"""A submission that has not written can_move, is_stalemate or check_game_over yet."""
from a1_support import *


def initial_state():
    back = "".join(BLACK_PIECES[:BOARD_SIZE])
    return (back, BLACK_PAWN * BOARD_SIZE) + (EMPTY * BOARD_SIZE,) * 4 + (
        WHITE_PAWN * BOARD_SIZE, back.upper())
