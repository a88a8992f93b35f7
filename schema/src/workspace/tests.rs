use super::*;

#[test]
fn target_dir_follows_the_variable() {
    let ws = Path::new("/w");
    assert_eq!(target_dir(ws, None), Path::new("/w/target"));
    assert_eq!(target_dir(ws, Some(OsStr::new(""))), Path::new("/w/target"));
    assert_eq!(target_dir(ws, Some(OsStr::new("t2"))), Path::new("/w/t2"));
    assert_eq!(target_dir(ws, Some(OsStr::new("/abs"))), Path::new("/abs"));
}
