//! Maximum-weight matching on a dense graph (Edmonds' blossom algorithm with
//! dual variables, the O(n^3) primal-dual formulation).
//!
//! The graph is complete; an edge of weight zero is absent and never used.
//! The solver is incremental: the matching, the dual variables and the
//! blossoms are kept between calls to [`Matcher::compute`]. Changing the
//! weights of edges at a vertex dissolves the blossoms around it, frees it
//! and raises its dual variable until every edge is feasible again; the next
//! call then only grows alternating trees from the freed vertices, which have
//! unequal dual variables (stages end on an augmentation or when an outer
//! vertex's dual variable reaches zero, in which case the path to it is
//! flipped so that the exposed vertex is the one with a zero dual).

// Index loops mirror the vertex/position arithmetic of the algorithm.
#![allow(clippy::needless_range_loop)]

use super::wide::Weight;

const NONE: usize = usize::MAX;

/// An ordered pair of vertices `(a, b)`: an edge seen from `a` towards `b`.
type Arc = (usize, usize);

const NO_ARC: Arc = (NONE, NONE);

/// A maximum-weight matching solver over a dense symmetric weight matrix.
pub struct Matcher<W: Weight> {
    n: usize,
    /// Twice the edge weights, row-major.
    weights: Vec<W>,
    /// Vertices that still take part (not retired by `fix_pair`).
    active: Vec<usize>,
    retired: Vec<bool>,
    pending: Vec<(usize, usize)>,
    dirty: Vec<bool>,
    dirty_list: Vec<usize>,
    fresh: bool,
    stage: u32,
    allowed_stamp: Vec<u32>,
    mate: Vec<usize>,
    label: Vec<u8>,
    label_arc: Vec<Arc>,
    in_blossom: Vec<usize>,
    parent: Vec<usize>,
    children: Vec<Vec<usize>>,
    arcs: Vec<Vec<Arc>>,
    base: Vec<usize>,
    best_arc: Vec<Arc>,
    best_arcs: Vec<Option<Vec<Arc>>>,
    /// Slack of `best_arc` plus the stage's dual offset (twice the offset
    /// for arcs between outer blossoms), so keys stay comparable while the
    /// dual variables move.
    best_key: Vec<W>,
    /// Sum of the dual adjustments made in the current stage.
    offset: W,
    unused: Vec<usize>,
    dual: Vec<W>,
    queue: Vec<usize>,
}

impl<W: Weight> Matcher<W> {
    /// A solver for `n` vertices with all edges absent.
    pub fn new(n: usize) -> Self {
        Matcher {
            n,
            weights: vec![W::zero(); n * n],
            active: (0..n).collect(),
            retired: vec![false; n],
            pending: Vec::new(),
            dirty: vec![false; n],
            dirty_list: Vec::new(),
            fresh: true,
            stage: 0,
            allowed_stamp: vec![0; n * n],
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            label_arc: vec![NO_ARC; 2 * n],
            in_blossom: (0..n).collect(),
            parent: vec![NONE; 2 * n],
            children: vec![Vec::new(); 2 * n],
            arcs: vec![Vec::new(); 2 * n],
            base: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            best_arc: vec![NO_ARC; 2 * n],
            best_arcs: vec![None; 2 * n],
            best_key: vec![W::zero(); 2 * n],
            offset: W::zero(),
            unused: (n..2 * n).rev().collect(),
            dual: vec![W::zero(); 2 * n],
            queue: Vec::new(),
        }
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether the graph has no vertices.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Set the weight of edge `{a, b}` (zero removes it). Vertex `a` is the
    /// one prepared for the change.
    pub fn set(&mut self, a: usize, b: usize, weight: W) {
        let doubled = weight.add(weight);
        if self.weights[a * self.n + b] == doubled {
            return;
        }
        if self.retired[a] || self.retired[b] {
            self.unretire(a);
            self.unretire(b);
        }
        self.weights[a * self.n + b] = doubled;
        self.weights[b * self.n + a] = doubled;
        if !self.dirty[a] {
            self.dirty[a] = true;
            self.dirty_list.push(a);
        }
    }

    fn unretire(&mut self, v: usize) {
        if self.retired[v] {
            self.retired[v] = false;
            let m = self.mate[v];
            if m != NONE {
                self.retired[m] = false;
            }
            self.active = (0..self.n).filter(|&x| !self.retired[x]).collect();
        }
    }

    /// The weight of edge `{a, b}`.
    pub fn get(&self, a: usize, b: usize) -> W {
        self.weights[a * self.n + b].half()
    }

    /// Fix `a` and `b` as a pair: their edge gets `weight` (which must
    /// exceed every other weight), all their other edges are removed, and
    /// once the next [`Matcher::compute`] has matched them together they
    /// are left out of all further work.
    pub fn fix_pair(&mut self, a: usize, b: usize, weight: W) {
        for x in 0..self.n {
            if x != a {
                self.set(a, x, if x == b { weight } else { W::zero() });
            }
            if x != b {
                self.set(b, x, if x == a { weight } else { W::zero() });
            }
        }
        self.pending.push((a, b));
    }

    /// Compute a maximum-weight matching; entry `v` is the mate of `v`, or
    /// `v` itself when unmatched.
    pub fn compute(&mut self) -> Vec<usize> {
        if self.fresh {
            self.fresh = false;
            let max = self
                .weights
                .iter()
                .copied()
                .max()
                .unwrap_or_else(W::zero)
                .half();
            let max = if max.is_odd() {
                max.add(W::from_u64(1))
            } else {
                max
            };
            for v in 0..self.n {
                self.dual[v] = max;
                self.dirty[v] = false;
            }
            self.dirty_list.clear();
        } else {
            self.prepare();
        }
        self.solve();
        if !self.pending.is_empty() {
            for (a, b) in std::mem::take(&mut self.pending) {
                if self.mate[a] == b {
                    self.retired[a] = true;
                    self.retired[b] = true;
                }
            }
            self.active = (0..self.n).filter(|&x| !self.retired[x]).collect();
        }
        (0..self.n)
            .map(|v| {
                if self.mate[v] == NONE {
                    v
                } else {
                    self.mate[v]
                }
            })
            .collect()
    }

    /// Dissolve a top-level blossom outside a stage, moving its dual
    /// variable onto its vertices.
    fn dissolve(&mut self, b: usize) {
        let z = self.dual[b];
        let leaves = self.leaves_of(b);
        if !z.is_zero() {
            for &u in &leaves {
                self.dual[u] = self.dual[u].add(z);
            }
        }
        self.dual[b] = W::zero();
        let children = std::mem::take(&mut self.children[b]);
        for &c in &children {
            self.parent[c] = NONE;
            if c < self.n {
                self.in_blossom[c] = c;
            } else {
                for x in self.leaves_of(c) {
                    self.in_blossom[x] = c;
                }
            }
        }
        self.label[b] = 0;
        self.label_arc[b] = NO_ARC;
        self.arcs[b] = Vec::new();
        self.base[b] = NONE;
        self.best_arcs[b] = None;
        self.best_arc[b] = NO_ARC;
        self.unused.push(b);
    }

    fn unmatch(&mut self, v: usize) {
        let m = self.mate[v];
        if m != NONE {
            self.mate[m] = NONE;
            self.mate[v] = NONE;
        }
    }

    /// Restore dual feasibility after edge weights changed at the dirty
    /// vertices.
    fn prepare(&mut self) {
        let dirty = std::mem::take(&mut self.dirty_list);
        for &a in &dirty {
            self.dirty[a] = false;
            while self.in_blossom[a] != a {
                let b = self.in_blossom[a];
                let base = self.base[b];
                self.unmatch(base);
                self.dissolve(b);
            }
            // Raise the dual variable until every edge at `a` is feasible.
            let mut need = self.dual[a];
            for &u in &self.active {
                let two_w = self.weights[a * self.n + u];
                if u == a || two_w.is_zero() {
                    continue;
                }
                if two_w > self.dual[u] {
                    let d = two_w.sub(self.dual[u]);
                    if d > need {
                        need = d;
                    }
                }
            }
            self.dual[a] = need;
            let m = self.mate[a];
            if m != NONE && !self.slack(a, m).is_zero() {
                self.unmatch(a);
            }
        }
        // Every exposed vertex with a positive dual becomes a singleton with
        // an even dual variable.
        for v in 0..self.n {
            if self.mate[v] != NONE || self.dual[v].is_zero() {
                continue;
            }
            while self.in_blossom[v] != v {
                let b = self.in_blossom[v];
                self.dissolve(b);
            }
            if self.dual[v].is_odd() {
                self.dual[v] = self.dual[v].add(W::from_u64(1));
            }
        }
    }
}

impl<W: Weight> Matcher<W> {
    #[inline(always)]
    fn weight(&self, a: usize, b: usize) -> W {
        self.weights[a * self.n + b]
    }

    /// Slack of edge `{a, b}`: `dual[a] + dual[b] - 2 w(a, b)`.
    #[inline(always)]
    fn slack(&self, a: usize, b: usize) -> W {
        self.dual[a].add_sub(self.dual[b], self.weight(a, b))
    }

    #[inline(always)]
    fn arc_slack(&self, arc: Arc) -> W {
        self.slack(arc.0, arc.1)
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
            return;
        }
        let mut stack = vec![b];
        while let Some(x) = stack.pop() {
            if x < self.n {
                out.push(x);
            } else {
                for &c in self.children[x].iter().rev() {
                    stack.push(c);
                }
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, arc: Arc) {
        let b = self.in_blossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.label_arc[w] = arc;
        self.label_arc[b] = arc;
        self.best_arc[w] = NO_ARC;
        self.best_arc[b] = NO_ARC;
        if t == 1 {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else {
            let base = self.base[b];
            let m = self.mate[base];
            self.assign_label(m, 1, (base, m));
        }
    }

    /// Trace back from both ends of a tight edge between S-blossoms; return
    /// the base of a new blossom, or `NONE` for an augmenting path.
    fn scan_blossom(&mut self, v: usize, w: usize) -> usize {
        let mut path = Vec::new();
        let mut result = NONE;
        let (mut v, mut w) = (v, w);
        while v != NONE || w != NONE {
            let b = self.in_blossom[v];
            if self.label[b] & 4 != 0 {
                result = self.base[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.label_arc[b].0 == NONE {
                v = NONE;
            } else {
                let t = self.label_arc[b].0;
                let bt = self.in_blossom[t];
                v = self.label_arc[bt].0;
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        result
    }

    fn add_blossom(&mut self, base: usize, v: usize, w: usize) {
        let bb = self.in_blossom[base];
        let mut bv = self.in_blossom[v];
        let mut bw = self.in_blossom[w];
        let Some(b) = self.unused.pop() else {
            return;
        };
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut path = Vec::new();
        let mut arcs = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            path.push(bv);
            arcs.push(self.label_arc[bv]);
            let x = self.label_arc[bv].0;
            bv = self.in_blossom[x];
        }
        path.push(bb);
        path.reverse();
        arcs.reverse();
        arcs.push((v, w));
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            let (o, i) = self.label_arc[bw];
            arcs.push((i, o));
            bw = self.in_blossom[o];
        }
        self.label[b] = 1;
        self.label_arc[b] = self.label_arc[bb];
        self.dual[b] = W::zero();
        self.children[b] = path.clone();
        self.arcs[b] = arcs;
        let leaves = self.leaves_of(b);
        for &x in &leaves {
            if self.label[self.in_blossom[x]] == 2 {
                self.queue.push(x);
            }
            self.in_blossom[x] = b;
        }
        // Least-slack arc from the new blossom to each neighbouring outer
        // blossom: `slot[bj]` indexes `found`.
        let mut slot: Vec<usize> = vec![NONE; 2 * self.n];
        let mut found: Vec<(Arc, W)> = Vec::new();
        let mut consider = |me: &Self, i: usize, j: usize, found: &mut Vec<(Arc, W)>| {
            let bj = me.in_blossom[j];
            if bj == b || me.label[bj] != 1 {
                return;
            }
            let sl = me.slack(i, j);
            if slot[bj] == NONE {
                slot[bj] = found.len();
                found.push(((i, j), sl));
            } else if sl < found[slot[bj]].1 {
                found[slot[bj]] = ((i, j), sl);
            }
        };
        for &sub in &path {
            match self.best_arcs[sub].take() {
                Some(list) => {
                    for (mut i, mut j) in list {
                        if self.in_blossom[j] == b {
                            std::mem::swap(&mut i, &mut j);
                        }
                        consider(self, i, j, &mut found);
                    }
                }
                None => {
                    for x in self.leaves_of(sub) {
                        for k in 0..self.active.len() {
                            let y = self.active[k];
                            let by = self.in_blossom[y];
                            if y == x || by == b || self.label[by] != 1 {
                                continue;
                            }
                            if !self.weight(x, y).is_zero() {
                                consider(self, x, y, &mut found);
                            }
                        }
                    }
                }
            }
            self.best_arc[sub] = NO_ARC;
        }
        let mut best = NO_ARC;
        let mut best_slack = W::zero();
        for &(arc, sl) in &found {
            if best == NO_ARC || sl < best_slack {
                best = arc;
                best_slack = sl;
            }
        }
        let list: Vec<Arc> = found.into_iter().map(|(arc, _)| arc).collect();
        self.best_arcs[b] = Some(list);
        self.best_arc[b] = best;
        if best != NO_ARC {
            self.best_key[b] = self.arc_slack(best).add(self.offset).add(self.offset);
        }
    }

    fn set_allowed(&mut self, a: usize, b: usize) {
        self.allowed_stamp[a * self.n + b] = self.stage;
        self.allowed_stamp[b * self.n + a] = self.stage;
    }

    #[inline(always)]
    fn is_allowed(&self, a: usize, b: usize) -> bool {
        self.allowed_stamp[a * self.n + b] == self.stage
    }

    /// Flip the alternating path from outer vertex `w` to the root of its
    /// tree, leaving `w` exposed and the root matched.
    fn expose(&mut self, w: usize) {
        self.flip_to_root(w, NONE);
    }

    /// Flip the alternating path from outer vertex `start` to the root of its tree, matching
    /// `start` to `partner` (or leaving it exposed with [`NONE`]).
    fn flip_to_root(&mut self, start: usize, partner: usize) {
        let mut s = start;
        let mut p = partner;
        loop {
            let bs = self.in_blossom[s];
            if bs >= self.n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = p;
            if self.label_arc[bs].0 == NONE {
                break;
            }
            let t = self.label_arc[bs].0;
            let bt = self.in_blossom[t];
            let (s2, j) = self.label_arc[bt];
            if bt >= self.n {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = s2;
            s = s2;
            p = j;
        }
    }

    fn expand_blossom(&mut self, b: usize, end_stage: bool) {
        let refresh = if !end_stage && self.label[b] == 2 {
            self.leaves_of(b)
        } else {
            Vec::new()
        };
        let children = self.children[b].clone();
        for &s in &children {
            self.parent[s] = NONE;
            if s < self.n {
                self.in_blossom[s] = s;
            } else if end_stage && self.dual[s].is_zero() {
                self.expand_blossom(s, end_stage);
            } else {
                for x in self.leaves_of(s) {
                    self.in_blossom[x] = s;
                }
            }
        }
        if !end_stage && self.label[b] == 2 {
            let len = children.len() as isize;
            let idx = |j: isize| j.rem_euclid(len) as usize;
            let entry_child = self.in_blossom[self.label_arc[b].1];
            let mut j = children.iter().position(|&c| c == entry_child).unwrap_or(0) as isize;
            let (jstep, trick) = if j & 1 == 1 {
                j -= len;
                (1isize, 0isize)
            } else {
                (-1isize, 1isize)
            };
            let arc_at = |state: &Self, j: isize| -> Arc {
                let e = state.arcs[b][idx(j - trick)];
                if trick == 0 {
                    e
                } else {
                    (e.1, e.0)
                }
            };
            let mut p = self.label_arc[b];
            while j != 0 {
                self.label[p.1] = 0;
                let q = arc_at(self, j);
                // q = endps ^ trick; the vertex endpoint[q ^ 1] is q.1.
                self.label[q.1] = 0;
                self.assign_label(p.1, 2, p);
                self.set_allowed(q.0, q.1);
                j += jstep;
                p = arc_at(self, j);
                self.set_allowed(p.0, p.1);
                j += jstep;
            }
            let bv = children[idx(j)];
            self.label[p.1] = 2;
            self.label[bv] = 2;
            self.label_arc[p.1] = p;
            self.label_arc[bv] = p;
            self.best_arc[bv] = NO_ARC;
            j += jstep;
            while children[idx(j)] != entry_child {
                let bv = children[idx(j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let leaves = self.leaves_of(bv);
                if let Some(&v) = leaves.iter().find(|&&v| self.label[v] != 0) {
                    self.label[v] = 0;
                    let m = self.mate[self.base[bv]];
                    self.label[m] = 0;
                    let arc = self.label_arc[v];
                    self.assign_label(v, 2, arc);
                }
                j += jstep;
            }
        }
        for v in refresh {
            if self.best_arc[v] != NO_ARC {
                self.best_key[v] = self.arc_slack(self.best_arc[v]).add(self.offset);
            }
        }
        self.label[b] = 0;
        self.label_arc[b] = NO_ARC;
        self.children[b] = Vec::new();
        self.arcs[b] = Vec::new();
        self.base[b] = NONE;
        self.best_arcs[b] = None;
        self.best_arc[b] = NO_ARC;
        self.unused.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.children[b].len() as isize;
        let idx = |j: isize| j.rem_euclid(len) as usize;
        let i = self.children[b].iter().position(|&c| c == t).unwrap_or(0);
        let mut j = i as isize;
        let (jstep, trick) = if j & 1 == 1 {
            j -= len;
            (1isize, 0isize)
        } else {
            (-1isize, 1isize)
        };
        while j != 0 {
            j += jstep;
            let t1 = self.children[b][idx(j)];
            let e = self.arcs[b][idx(j - trick)];
            let p = if trick == 0 { e } else { (e.1, e.0) };
            if t1 >= self.n {
                self.augment_blossom(t1, p.0);
            }
            j += jstep;
            let t2 = self.children[b][idx(j)];
            if t2 >= self.n {
                self.augment_blossom(t2, p.1);
            }
            self.mate[p.0] = p.1;
            self.mate[p.1] = p.0;
        }
        self.children[b].rotate_left(i);
        self.arcs[b].rotate_left(i);
        self.base[b] = self.base[self.children[b][0]];
    }

    fn augment_matching(&mut self, v: usize, w: usize) {
        for (start, partner) in [(v, w), (w, v)] {
            self.flip_to_root(start, partner);
        }
    }

    fn solve(&mut self) {
        let n = self.n;
        if n == 0 {
            return;
        }
        loop {
            self.stage = self.stage.wrapping_add(1);
            if self.stage == 0 {
                self.allowed_stamp.iter_mut().for_each(|x| *x = 0);
                self.stage = 1;
            }
            self.label.iter_mut().for_each(|x| *x = 0);
            self.best_arc.iter_mut().for_each(|x| *x = NO_ARC);
            for b in n..2 * n {
                self.best_arcs[b] = None;
            }
            self.queue.clear();
            self.offset = W::zero();
            let mut roots = 0;
            for k in 0..self.active.len() {
                let v = self.active[k];
                if self.mate[v] == NONE
                    && !self.dual[v].is_zero()
                    && self.label[self.in_blossom[v]] == 0
                {
                    self.assign_label(v, 1, NO_ARC);
                    roots += 1;
                }
            }
            if roots == 0 {
                break;
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    if augmented {
                        break;
                    }
                    // Keys are slack + offset: compute them from
                    // dual[v] + offset once per scan.
                    let base_key = self.dual[v].add(self.offset);
                    for k in 0..self.active.len() {
                        let w = self.active[k];
                        let bv = self.in_blossom[v];
                        let bw = self.in_blossom[w];
                        // Nothing to do for the same blossom or for a vertex
                        // already labelled inner.
                        if bv == bw || (self.label[w] == 2 && self.label[bw] == 2) {
                            continue;
                        }
                        let two_w = self.weight(v, w);
                        if two_w.is_zero() {
                            continue;
                        }
                        let mut key = W::zero();
                        if !self.is_allowed(v, w) {
                            key = base_key.add_sub(self.dual[w], two_w);
                            if key == self.offset {
                                self.set_allowed(v, w);
                            }
                        }
                        if self.is_allowed(v, w) {
                            if self.label[bw] == 0 {
                                if self.mate[self.base[bw]] == NONE {
                                    // An exposed blossom with a zero dual:
                                    // augment into it.
                                    self.label[bw] = 1;
                                    self.label_arc[bw] = NO_ARC;
                                    self.augment_matching(v, w);
                                    augmented = true;
                                    break;
                                }
                                self.assign_label(w, 2, (v, w));
                            } else if self.label[bw] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, v, w);
                                } else {
                                    self.augment_matching(v, w);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.label_arc[w] = (v, w);
                            }
                        } else if self.label[bw] == 1 {
                            let key = key.add(self.offset);
                            if self.best_arc[bv] == NO_ARC || key < self.best_key[bv] {
                                self.best_arc[bv] = (v, w);
                                self.best_key[bv] = key;
                            }
                        } else if self.label[w] == 0
                            && (self.best_arc[w] == NO_ARC || key < self.best_key[w])
                        {
                            self.best_arc[w] = (v, w);
                            self.best_key[w] = key;
                        }
                    }
                }
                if augmented {
                    break;
                }
                // Delta 1: an outer vertex's dual variable reaches zero.
                let mut delta_type = 0;
                let mut delta = W::zero();
                let mut delta_vertex = NONE;
                for k in 0..self.active.len() {
                    let v = self.active[k];
                    if self.label[self.in_blossom[v]] == 1
                        && (delta_type == 0 || self.dual[v] < delta)
                    {
                        delta = self.dual[v];
                        delta_type = 1;
                        delta_vertex = v;
                    }
                }
                let mut delta_arc = NO_ARC;
                let mut delta_blossom = NONE;
                for k in 0..self.active.len() {
                    let v = self.active[k];
                    if self.label[self.in_blossom[v]] == 0 && self.best_arc[v] != NO_ARC {
                        let d = self.best_key[v].sub(self.offset);
                        if d < delta {
                            delta = d;
                            delta_type = 2;
                            delta_arc = self.best_arc[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.parent[b] == NONE
                        && self.label[b] == 1
                        && self.best_arc[b] != NO_ARC
                        && (b < n || self.base[b] != NONE)
                    {
                        let d = self.best_key[b].sub(self.offset).sub(self.offset).half();
                        if d < delta {
                            delta = d;
                            delta_type = 3;
                            delta_arc = self.best_arc[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.base[b] != NONE
                        && self.parent[b] == NONE
                        && self.label[b] == 2
                        && self.dual[b] < delta
                    {
                        delta = self.dual[b];
                        delta_type = 4;
                        delta_blossom = b;
                    }
                }
                if delta_type == 0 {
                    break;
                }
                self.offset = self.offset.add(delta);
                for k in 0..self.active.len() {
                    let v = self.active[k];
                    match self.label[self.in_blossom[v]] {
                        1 => self.dual[v] = self.dual[v].sub(delta),
                        2 => self.dual[v] = self.dual[v].add(delta),
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.base[b] != NONE && self.parent[b] == NONE {
                        match self.label[b] {
                            1 => self.dual[b] = self.dual[b].add(delta),
                            2 => self.dual[b] = self.dual[b].sub(delta),
                            _ => {}
                        }
                    }
                }
                match delta_type {
                    1 => {
                        self.expose(delta_vertex);
                        break;
                    }
                    2 => {
                        let (mut i, mut j) = delta_arc;
                        self.set_allowed(i, j);
                        if self.label[self.in_blossom[i]] == 0 {
                            std::mem::swap(&mut i, &mut j);
                        }
                        let _ = j;
                        self.queue.push(i);
                    }
                    3 => {
                        let (i, j) = delta_arc;
                        self.set_allowed(i, j);
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(delta_blossom, false),
                }
            }
            for b in n..2 * n {
                if self.parent[b] == NONE
                    && self.base[b] != NONE
                    && self.label[b] == 1
                    && self.dual[b].is_zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::wide::Wide;
    use super::*;

    fn brute(n: usize, w: &[u64]) -> u64 {
        fn go(used: u32, n: usize, w: &[u64]) -> u64 {
            let Some(first) = (0..n).find(|&i| used & (1 << i) == 0) else {
                return 0;
            };
            let used = used | (1 << first);
            let mut best = go(used, n, w);
            for j in 0..n {
                if used & (1 << j) == 0 && w[first * n + j] > 0 {
                    best = best.max(w[first * n + j] + go(used | (1 << j), n, w));
                }
            }
            best
        }
        go(0, n, w)
    }

    #[test]
    fn random_graphs_match_brute_force() {
        let mut seed = 12345u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..3000 {
            let n = (rnd() % 12) as usize + 1;
            let mut w = vec![0u64; n * n];
            let mut m = Matcher::<Wide<1>>::new(n);
            for i in 0..n {
                for j in i + 1..n {
                    let x = if rnd() % 3 == 0 {
                        0
                    } else {
                        rnd() % (if round % 2 == 0 { 8 } else { 1000 })
                    };
                    w[i * n + j] = x;
                    w[j * n + i] = x;
                    m.set(i, j, Wide::from_u64(x));
                }
            }
            for step in 0..6 {
                if step > 0 {
                    let k = (rnd() % 3) as usize + 1;
                    for _ in 0..k {
                        let a = (rnd() % n as u64) as usize;
                        for b in 0..n {
                            if b != a && rnd() % 2 == 0 {
                                let x = if rnd() % 3 == 0 {
                                    0
                                } else {
                                    rnd() % (if round % 2 == 0 { 8 } else { 1000 })
                                };
                                w[a * n + b] = x;
                                w[b * n + a] = x;
                                m.set(a, b, Wide::from_u64(x));
                            }
                        }
                    }
                }
                let mate = m.compute();
                let mut total = 0;
                for v in 0..n {
                    assert_eq!(mate[mate[v]], v);
                    if mate[v] > v {
                        assert!(w[v * n + mate[v]] > 0);
                        total += w[v * n + mate[v]];
                    }
                }
                assert_eq!(total, brute(n, &w), "n={n} step={step} w={w:?}");
            }
        }
    }
}
#[cfg(test)]
mod small_graph_tests {
    use super::super::wide::Wide;
    use super::*;
    #[test]
    fn tiny() {
        let mut m = Matcher::<Wide<1>>::new(2);
        m.set(0, 1, Wide::from_u64(5));
        assert_eq!(m.compute(), vec![1, 0]);
        let mut m = Matcher::<Wide<1>>::new(3);
        m.set(0, 1, Wide::from_u64(5));
        m.set(1, 2, Wide::from_u64(6));
        assert_eq!(m.compute(), vec![0, 2, 1]);
    }
}
