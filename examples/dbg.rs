fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut pos = arbiter::cli::position(&args[1], Some(&args[2])).unwrap();
    let moves = pos.legal_moves();
    for m in moves {
        let s = arbiter::engine::notation::format(&pos, m);
        let u = pos.make(m);
        let fast = pos.legal_moves().len();
        let mut v = Vec::new();
        pos.pseudo_moves(&mut v);
        let slow = v.iter().filter(|&&x| pos.is_legal_pseudo(x)).count();
        if fast != slow {
            println!(
                "{s}: fast {fast} slow {slow} fen {}",
                arbiter::engine::fen::write(&pos)
            );
        }
        pos.unmake(m, &u);
    }
}
