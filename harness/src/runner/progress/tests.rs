use super::*;

#[test]
fn the_line_says_how_many_of_how_many_and_the_time_left_at_the_pace_so_far() {
    let d = Duration::from_secs;
    assert_eq!(line(0, 1773, d(3)), "progress: 0 of 1773 cases in 3 s");
    assert_eq!(
        line(400, 1200, d(40)),
        "progress: 400 of 1200 cases in 40 s; about 1 min 20 s left"
    );
    assert_eq!(
        line(10, 8444, d(600)),
        "progress: 10 of 8444 cases in 10 min 0 s; about 140 h 34 min left"
    );
    assert_eq!(line(5, 5, d(9)), "progress: 5 of 5 cases in 9 s");
}
