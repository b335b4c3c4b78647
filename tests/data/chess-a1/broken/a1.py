"""A submission with a syntax error: it cannot be imported."""
from a1_support import *


def initial_state()
    return ()
