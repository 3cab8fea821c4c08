//! The two players and what can stand on a cell.

/// Largest supported board side (columns are the letters `A..=Z`).
pub const MAX_N: usize = 26;

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// Player `X`.
    X = 0,
    /// Player `O`.
    O = 1,
}

impl Player {
    /// The opponent.
    #[inline]
    pub const fn other(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    /// The board character of this player's pieces.
    pub const fn symbol(self) -> char {
        match self {
            Player::X => 'X',
            Player::O => 'O',
        }
    }

    /// The player named `X` or `O` (either case), as `input.txt`, the JSON
    /// and the store write it.
    pub fn from_name(text: &str) -> Option<Player> {
        match text {
            "X" | "x" => Some(Player::X),
            "O" | "o" => Some(Player::O),
            _ => None,
        }
    }

    /// `+1` for X, `-1` for O: the board keeps its score from X's side.
    #[inline]
    pub(crate) const fn sign(self) -> i64 {
        match self {
            Player::X => 1,
            Player::O => -1,
        }
    }
}

/// What occupies a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Square {
    /// No piece.
    Empty,
    /// A piece of this player.
    Piece(Player),
}

/// A name that is not `X` or `O`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown player {0:?} (expected X or O)")]
pub struct UnknownPlayer(pub String);

impl std::str::FromStr for Player {
    type Err = UnknownPlayer;

    fn from_str(text: &str) -> Result<Player, UnknownPlayer> {
        Player::from_name(text).ok_or_else(|| UnknownPlayer(text.to_owned()))
    }
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.symbol())
    }
}
