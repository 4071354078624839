//! Tables as pictures (tournament standings): a title, a header band and rows of text cells.

use ab_glyph::FontRef;

use super::board::{DIM, PAGE, PANEL, TEXT};
use super::canvas::{fit_text, text_width, Align, Canvas, Rgb8};
use super::{fonts, RenderError};

/// A table to draw: a title line, column headings and rows of cells (all text).
///
/// Rows may be shorter or longer than the header; missing cells are empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableView {
    /// The line above the table.
    pub title: String,
    /// Column headings.
    pub header: Vec<String>,
    /// The rows, each a list of cells.
    pub rows: Vec<Vec<String>>,
    /// Row indices drawn with a tinted background (the leader).
    pub highlight: Vec<usize>,
    /// Row indices drawn in grey (eliminated teams).
    pub dimmed: Vec<usize>,
}

/// Rows drawn at most; the rest are summed up in a last row "… and N more".
const MAX_ROWS: usize = 60;
/// Columns drawn at most; the rest are left out (the last row says how many).
const MAX_COLS: usize = 32;
/// Characters of a cell kept before it is cut with an ellipsis.
const MAX_CHARS: usize = 40;
/// Characters of the title kept before it is cut with an ellipsis.
const MAX_TITLE_CHARS: usize = 100;
/// The table's columns are narrowed (their longest cells cut) to keep it this wide at most.
const MAX_TABLE_W: u32 = 2400;
/// Narrowest a column gets when the table is too wide.
const MIN_COL_W: u32 = 60;
const PAD: u32 = 16;
const TITLE_PX: f32 = 22.0;
const TITLE_H: u32 = 44;
const CELL_PX: f32 = 16.0;
const HEADER_H: u32 = 32;
const ROW_H: u32 = 28;
const CELL_PAD: u32 = 12;
const HEADER_BAND: Rgb8 = [28, 30, 34];
const HEADER_RULE: Rgb8 = [96, 102, 112];
const ROW_ODD: Rgb8 = [60, 64, 71];
const LEADER_TINT: Rgb8 = [250, 210, 60];
const DIMMED: Rgb8 = [128, 132, 140];

/// Draws a table and returns PNG bytes.
///
/// Columns are as wide as their widest cell; cells that look like numbers (`12`, `-3`,
/// `4.5`, `3½`, `75%`) are right-aligned, others left-aligned, and a heading follows its
/// column's cells. Cells longer than 40 characters are cut with an ellipsis. At most 60 rows
/// are drawn; a last row says how many more there are. Characters the font lacks are drawn as
/// its fallback box.
///
/// # Errors
/// Only if the embedded font is unreadable or encoding fails.
pub fn render_table(view: &TableView) -> Result<Vec<u8>, RenderError> {
    draw_table(view)?.encode()
}

/// The standings of a Swiss KFB tournament after five rounds (a leader, two eliminated teams,
/// accents and Cyrillic); used by the benchmark.
pub fn example_table() -> TableView {
    let rows: [[&str; 8]; 8] = [
        [
            "1",
            "Dragons",
            "Lena, Rob, Blake",
            "4½",
            "14.5",
            "11.25",
            "0",
            "playing",
        ],
        [
            "2",
            "Tigers",
            "Ruth, Bo, Lou",
            "4",
            "15",
            "10.5",
            "1",
            "playing",
        ],
        [
            "3",
            "Les Échecs Fous",
            "Zoë, Søren, Ángel",
            "3½",
            "13",
            "8.75",
            "1",
            "playing",
        ],
        [
            "4",
            "Knights Who Say Ni",
            "Arthur, Patsy, Tim the Enchanter",
            "3",
            "12.5",
            "7",
            "2",
            "playing",
        ],
        [
            "5",
            "Bughouse Bandits",
            "Kai, Mia, Ola",
            "3",
            "11",
            "6.5",
            "2",
            "playing",
        ],
        [
            "6",
            "Ферзи",
            "Иван, Ольга, Пётр",
            "2",
            "10.5",
            "3",
            "3",
            "eliminated",
        ],
        [
            "7",
            "Rookies",
            "Sam, Ana, Jo",
            "1½",
            "9",
            "2.25",
            "3",
            "playing",
        ],
        [
            "8",
            "Pawnstars",
            "Dee, Eli, Fay",
            "½",
            "8.5",
            "0.25",
            "5",
            "eliminated",
        ],
    ];
    let cells = |r: &[&str]| r.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    TableView {
        title: "Swiss KFB Cup · standings after round 5".into(),
        header: cells(&[
            "#", "Team", "Players", "Score", "Buchholz", "SB", "Losses", "Status",
        ]),
        rows: rows.iter().map(|r| cells(r)).collect(),
        highlight: vec![0],
        dimmed: vec![5, 7],
    }
}

/// Cleans a cell for drawing: control characters become spaces and long text is cut.
fn clip_chars(text: &str, max: usize) -> String {
    let clean = text.chars().map(|c| if c.is_control() { ' ' } else { c });
    if text.chars().count() <= max {
        clean.collect()
    } else {
        clean.take(max.saturating_sub(1)).chain(['…']).collect()
    }
}

/// Whether a cell reads as a number (score, rank, percentage, fraction), to right-align it.
fn numeric(text: &str) -> bool {
    let t = text.trim();
    t.chars().any(|c| c.is_ascii_digit() || "½¼¾".contains(c))
        && t.chars()
            .all(|c| c.is_ascii_digit() || "½¼¾.,+-−/%".contains(c))
}

/// The background of row `i`: rows alternate between two shades.
fn row_shade(i: usize) -> Rgb8 {
    if i.is_multiple_of(2) {
        PANEL
    } else {
        ROW_ODD
    }
}

/// The widest `cap` such that columns no wider than `cap` fit in `max_total` (at least
/// [`MIN_COL_W`]); `None` if the columns fit as they are.
fn column_cap(widths: &[u32], max_total: u32) -> Option<u32> {
    if widths.iter().sum::<u32>() <= max_total {
        return None;
    }
    let total = |cap: u32| widths.iter().map(|&w| w.min(cap)).sum::<u32>();
    let (mut lo, mut hi) = (MIN_COL_W, widths.iter().copied().max().unwrap_or(MIN_COL_W));
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if total(mid) <= max_total {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Some(lo)
}

/// Draws the table.
pub(crate) fn draw_table(view: &TableView) -> Result<Canvas, RenderError> {
    let fonts = fonts()?;
    let (regular, bold) = (&fonts.regular, &fonts.bold);
    let all_cols = view
        .rows
        .iter()
        .map(Vec::len)
        .chain([view.header.len()])
        .max()
        .unwrap_or(0);
    let ncols = all_cols.min(MAX_COLS);
    let cell =
        |row: &[String], c: usize| clip_chars(row.get(c).map_or("", String::as_str), MAX_CHARS);
    let mut header: Vec<String> = (0..ncols).map(|c| cell(&view.header, c)).collect();
    let shown = view.rows.len().min(MAX_ROWS);
    let mut rows: Vec<Vec<String>> = view
        .rows
        .iter()
        .take(shown)
        .map(|r| (0..ncols).map(|c| cell(r, c)).collect())
        .collect();

    // Alignment: numbers right; a heading right if every filled cell below it is a number.
    let right: Vec<Vec<bool>> = rows
        .iter()
        .map(|r| r.iter().map(|t| numeric(t)).collect())
        .collect();
    let header_right: Vec<bool> = (0..ncols)
        .map(|c| {
            let filled: Vec<&str> = rows
                .iter()
                .map(|r| r[c].as_str())
                .filter(|t| !t.trim().is_empty())
                .collect();
            !filled.is_empty() && filled.iter().all(|t| numeric(t))
        })
        .collect();

    // Column widths: the widest cell plus padding, narrowed if the table is too wide.
    let measure = |font: &FontRef<'static>, t: &str| {
        text_width(font, CELL_PX, t).ceil() as u32 + 2 * CELL_PAD
    };
    let mut widths: Vec<u32> = (0..ncols)
        .map(|c| {
            rows.iter()
                .map(|r| measure(regular, &r[c]))
                .chain([measure(bold, &header[c])])
                .max()
                .unwrap_or(0)
        })
        .collect();
    if let Some(cap) = column_cap(&widths, MAX_TABLE_W) {
        let room = cap.saturating_sub(2 * CELL_PAD) as f32;
        for (c, w) in widths.iter_mut().enumerate() {
            if *w > cap {
                *w = cap;
                header[c] = fit_text(bold, CELL_PX, &header[c], room);
                for r in &mut rows {
                    r[c] = fit_text(regular, CELL_PX, &r[c], room);
                }
            }
        }
    }

    // The last line: "no entries", or how many rows (and columns) are not shown.
    let hidden_rows = view.rows.len() - shown;
    let hidden_cols = all_cols - ncols;
    let mut notes = Vec::new();
    if view.rows.is_empty() {
        notes.push("no entries".to_string());
    }
    if hidden_rows > 0 {
        notes.push(format!("… and {hidden_rows} more"));
    }
    if hidden_cols > 0 {
        notes.push(format!("{hidden_cols} more columns not shown"));
    }
    let note = notes.join(" · ");

    let title = clip_chars(&view.title, MAX_TITLE_CHARS);
    let table_w = widths
        .iter()
        .sum::<u32>()
        .max(measure(regular, &note))
        .max(text_width(bold, TITLE_PX, &title).ceil() as u32);
    let title_h = if title.is_empty() { 0 } else { TITLE_H };
    let note_h = if note.is_empty() { 0 } else { ROW_H };
    let body_h = HEADER_H + shown as u32 * ROW_H + note_h;
    let width = table_w + 2 * PAD;
    let height = PAD + title_h + body_h + PAD;
    let mut canvas = Canvas::new(width, height, PAGE);

    let x0 = PAD as i32;
    let mut y = PAD as i32;
    if title_h > 0 {
        canvas.text(
            bold,
            TITLE_PX,
            &title,
            x0 as f32,
            (y + TITLE_H as i32 / 2 - 2) as f32,
            Align::Left,
            TEXT,
        );
        y += title_h as i32;
    }

    // Draws one line of cells centred on `mid`.
    let draw_cells = |canvas: &mut Canvas,
                      cells: &[String],
                      align: &[bool],
                      mid: f32,
                      font: &FontRef<'static>,
                      c: Rgb8| {
        let mut x = x0;
        for (k, text) in cells.iter().enumerate() {
            let w = widths[k] as i32;
            if align.get(k).copied().unwrap_or(false) {
                let tw = text_width(font, CELL_PX, text);
                let right = (x + w - CELL_PAD as i32) as f32;
                canvas.text(font, CELL_PX, text, right - tw, mid, Align::Left, c);
            } else {
                canvas.text(
                    font,
                    CELL_PX,
                    text,
                    (x + CELL_PAD as i32) as f32,
                    mid,
                    Align::Left,
                    c,
                );
            }
            x += w;
        }
    };

    canvas.fill(x0, y, table_w, HEADER_H, HEADER_BAND);
    canvas.fill(x0, y + HEADER_H as i32 - 2, table_w, 2, HEADER_RULE);
    let mid = (y + HEADER_H as i32 / 2 - 1) as f32;
    draw_cells(&mut canvas, &header, &header_right, mid, bold, TEXT);
    y += HEADER_H as i32;

    for (i, (cells, align)) in rows.iter().zip(&right).enumerate() {
        canvas.fill(x0, y, table_w, ROW_H, row_shade(i));
        if view.highlight.contains(&i) {
            canvas.tint(x0, y, table_w, ROW_H, LEADER_TINT, 0.28);
            canvas.fill(x0, y, 3, ROW_H, LEADER_TINT);
        }
        let colour = if view.dimmed.contains(&i) {
            DIMMED
        } else {
            TEXT
        };
        let mid = (y + ROW_H as i32 / 2) as f32;
        draw_cells(&mut canvas, cells, align, mid, regular, colour);
        y += ROW_H as i32;
    }

    if note_h > 0 {
        canvas.fill(x0, y, table_w, ROW_H, row_shade(shown));
        canvas.text(
            regular,
            CELL_PX,
            &note,
            (x0 + CELL_PAD as i32) as f32,
            (y + ROW_H as i32 / 2) as f32,
            Align::Left,
            DIM,
        );
    }
    Ok(canvas)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_recognised() {
        for t in ["1", "12", "-3", "4.5", "3½", "½", "75%", "1/2", " 7 ", "+2"] {
            assert!(numeric(t), "{t}");
        }
        for t in ["", "-", "out", "Team 7", "1st", "2024-05-01x", "—"] {
            assert!(!numeric(t), "{t}");
        }
    }

    #[test]
    fn long_cells_are_cut() {
        let long = "é".repeat(50);
        let cut = clip_chars(&long, MAX_CHARS);
        assert_eq!(cut.chars().count(), MAX_CHARS);
        assert!(cut.ends_with('…'));
        assert_eq!(clip_chars("a\tb\nc", MAX_CHARS), "a b c");
        assert_eq!(clip_chars("", MAX_CHARS), "");
    }

    #[test]
    fn wide_tables_are_capped() {
        assert_eq!(column_cap(&[100, 200], 400), None);
        let cap = column_cap(&[100, 500, 900], 1000).unwrap();
        assert!(100 + 2 * cap <= 1000 && 100 + 2 * (cap + 1) > 1000, "{cap}");
        assert_eq!(column_cap(&[500; 100], 1000), Some(MIN_COL_W));
    }

    #[test]
    fn odd_views_draw() {
        let views = [
            TableView::default(),
            TableView {
                title: "Ünïcødé ✓ 漢字 🏆".into(),
                header: vec![],
                rows: vec![vec!["x".into(); 3], vec![], vec!["y".repeat(80)]],
                highlight: vec![0, 99],
                dimmed: vec![1, 500],
            },
            TableView {
                title: String::new(),
                header: (0..50).map(|i| format!("column {i}")).collect(),
                rows: vec![(0..50).map(|i| "w".repeat(i)).collect()],
                ..TableView::default()
            },
        ];
        for v in &views {
            let canvas = draw_table(v).unwrap();
            assert!(canvas.width() <= MAX_TABLE_W + 2 * PAD + 200);
            render_table(v).unwrap();
        }
    }
}
