//! Perft, once for every board: the number of move sequences `depth` plies deep, counted the
//! same way for the engine's boards and for Ultimate Chess's cross (the last ply counted in
//! bulk, one move buffer per ply). A position plugs in through [`Walk`].

/// A position that perft can walk: its legal moves, and a move made and unmade.
pub trait Walk {
    /// A move.
    type Move: Copy;
    /// What [`Walk::play`] keeps to undo a move.
    type Undo;
    /// Fills `out` with the legal moves of the side to move.
    fn legal_into(&mut self, out: &mut Vec<Self::Move>);
    /// Plays a legal move.
    fn play(&mut self, m: Self::Move) -> Self::Undo;
    /// Takes back the move just played.
    fn unplay(&mut self, m: Self::Move, undo: Self::Undo);
}

/// Counts the move sequences `depth` plies deep (a node with no legal move ends its line).
pub fn perft<P: Walk>(pos: &mut P, depth: u32) -> u64 {
    let mut bufs = buffers::<P>(depth);
    count(pos, depth, &mut bufs)
}

/// [`perft`] split by first move: each legal move with its count.
pub fn perft_divide<P: Walk>(pos: &mut P, depth: u32) -> Vec<(P::Move, u64)> {
    let mut first = Vec::new();
    pos.legal_into(&mut first);
    let mut bufs = buffers::<P>(depth);
    first
        .into_iter()
        .map(|m| {
            if depth <= 1 {
                return (m, 1);
            }
            let u = pos.play(m);
            let n = count(pos, depth - 1, &mut bufs);
            pos.unplay(m, u);
            (m, n)
        })
        .collect()
}

fn buffers<P: Walk>(depth: u32) -> Vec<Vec<P::Move>> {
    (0..depth.max(1)).map(|_| Vec::with_capacity(256)).collect()
}

fn count<P: Walk>(pos: &mut P, depth: u32, bufs: &mut [Vec<P::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some((buf, rest)) = bufs.split_first_mut() else {
        return 1;
    };
    pos.legal_into(buf);
    if depth == 1 {
        return buf.len() as u64;
    }
    let mut total = 0;
    for &m in buf.iter() {
        let u = pos.play(m);
        total += count(pos, depth - 1, rest);
        pos.unplay(m, u);
    }
    total
}
