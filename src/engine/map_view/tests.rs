//! Views in the default mode (`zero`); the `fault` mode is checked by the
//! C tests (`mapping.stale_*`), which can set the environment first.

#[cfg(target_os = "linux")]
use super::shareable;
use super::{os, Source, View, SMALL};

fn read(p: *mut u8, len: usize) -> Vec<u8> {
    // SAFETY: the tests read views (live or retired) they own.
    unsafe { std::slice::from_raw_parts(p, len).to_vec() }
}

fn write(p: *mut u8, bytes: &[u8]) {
    // SAFETY: as above.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), p, bytes.len()) };
}

fn check_copy_view(len: usize) {
    let mut driver = vec![7u8; len + 64];
    // Keep the driver pointer's offset in its page.
    let src = driver[16..].as_mut_ptr();
    let view = View::open(Source::Driver(src), len, true).expect("a view");
    let p = view.ptr();
    assert_ne!(p, src);
    assert_eq!((p as usize) % os::page_size(), (src as usize) % os::page_size());
    assert_eq!(read(p, len), vec![7u8; len]);
    write(p, &vec![9u8; len]);
    view.close(true);
    assert_eq!(&driver[16..16 + len], &vec![9u8; len][..], "a written copy reaches the driver's memory");
    assert_eq!(read(p, len), vec![0u8; len], "a retired view reads zeros");
    write(p, &vec![5u8; len]);
    assert_eq!(&driver[16..16 + len], &vec![9u8; len][..], "a stale write reaches nothing");
}

#[test]
fn small_views_are_copies_that_retire_to_zeros() {
    check_copy_view(256);
    check_copy_view(SMALL);
}

#[test]
fn large_views_are_copies_that_retire_to_zeros() {
    check_copy_view(SMALL + 4096);
    check_copy_view(3 << 20);
}

#[test]
fn a_read_view_writes_nothing_back() {
    let mut driver = vec![3u8; 1 << 20];
    let view = View::open(Source::Driver(driver.as_mut_ptr()), driver.len(), false).expect("a view");
    write(view.ptr(), &[1, 2, 3, 4]);
    view.close(true);
    assert_eq!(&driver[..4], &[3, 3, 3, 3]);
}

#[test]
fn blank_and_zeroed_views_start_zeroed() {
    for len in [64, 1 << 20] {
        let view = View::open(Source::Blank, len, true).expect("a view");
        assert_eq!(read(view.ptr(), len), vec![0u8; len]);
        view.close(true);
        let mut driver = vec![0u8; len];
        let view = View::open(Source::DriverZeroed(driver.as_mut_ptr()), len, true).expect("a view");
        assert_eq!(read(view.ptr(), len), vec![0u8; len]);
        write(view.ptr(), &[8]);
        view.close(true);
        assert_eq!(driver[0], 8);
    }
}

#[test]
fn retired_addresses_are_not_reused_soon() {
    let mut driver = vec![1u8; 256 << 10];
    let mut seen = std::collections::HashSet::new();
    for _ in 0..512 {
        let view = View::open(Source::Driver(driver.as_mut_ptr()), 4096, false).expect("a view");
        assert!(seen.insert(view.ptr() as usize), "a small view's address came back");
        view.close(false);
        let view = View::open(Source::Driver(driver.as_mut_ptr()), 256 << 10, false).expect("a view");
        assert!(seen.insert(view.ptr() as usize), "a large view's address came back");
        view.close(false);
    }
}

#[cfg(target_os = "linux")]
#[test]
fn shareable_memory_gets_zero_copy_views() {
    let len = 4 << 20;
    // SAFETY: a memfd of `len` bytes mapped shared, as engine/vk_memory.rs
    // makes them; unmapped and closed at the end.
    let (fd, base) = unsafe {
        let fd = libc::memfd_create(c"map_view test".as_ptr(), libc::MFD_CLOEXEC);
        assert!(fd >= 0 && libc::ftruncate(fd, len as i64) == 0);
        let p = libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED, fd, 0);
        assert_ne!(p, libc::MAP_FAILED);
        (fd, p as *mut u8)
    };
    shareable::add(base as usize, len);
    // SAFETY: within the mapping above.
    let at = unsafe { base.add(4096 + 256) };
    write(at, &[4u8; 1 << 20]);
    let view = View::open(Source::Driver(at), 1 << 20, true).expect("a view");
    assert!(view.zero_copy());
    assert_eq!(read(view.ptr(), 16), vec![4u8; 16]);
    write(view.ptr(), &[6u8; 8]);
    assert_eq!(read(at, 8), vec![6u8; 8], "the view is the same pages");
    let p = view.ptr();
    view.close(true);
    write(at, &[2u8; 8]);
    assert_eq!(read(p, 8), vec![0u8; 8], "a retired view no longer shows the pages");
    write(p, &[1u8; 8]);
    assert_eq!(read(at, 8), vec![2u8; 8], "a stale write reaches nothing");
    shareable::remove(base as usize);
    // SAFETY: the mapping and fd made above.
    unsafe {
        libc::munmap(base.cast(), len);
        libc::close(fd);
    }
}

#[test]
fn a_live_slot_survives_its_arena_filling_up() {
    let mut driver = vec![0x5au8; 4096];
    let keep = View::open(Source::Driver(driver.as_mut_ptr()), 4096, false).expect("a view");
    // More slots than one arena holds: the kept slot's arena fills up and
    // gives back the memory around it.
    for _ in 0..(super::ARENA / 4096 + 16) {
        let view = View::open(Source::Driver(driver.as_mut_ptr()), 4096, false).expect("a view");
        view.close(false);
    }
    assert_eq!(read(keep.ptr(), 4096), vec![0x5au8; 4096]);
    let p = keep.ptr();
    keep.close(false);
    assert_eq!(read(p, 4096), vec![0u8; 4096]);
}

#[test]
#[cfg(target_os = "linux")]
fn chunks_reuse_their_memory_under_new_addresses() {
    use super::blocks::CHUNK;
    let mut driver = vec![0x3cu8; 4096];
    let fresh_before = super::VIEWS.lock().blocks.fresh();
    // Map and retire several chunks' worth of slots, one at a time, keeping
    // the first address: the chunks before are retired as the arena moves
    // on, and their blocks back the later ones.
    let first = View::open(Source::Driver(driver.as_mut_ptr()), 4096, true).expect("a view");
    let kept = first.ptr();
    write(kept, &[0xeeu8; 64]);
    first.close(false);
    for _ in 0..(6 * CHUNK / 4096) {
        let view = View::open(Source::Driver(driver.as_mut_ptr()), 4096, true).expect("a view");
        assert_eq!(read(view.ptr(), 4096), vec![0x3cu8; 4096]);
        // A stale write left in the block must not reach a later view.
        write(view.ptr(), &[0x77u8; 4096]);
        let p = view.ptr();
        view.close(false);
        write(p, &[0x55u8; 16]);
    }
    assert_eq!(read(kept, 4096), vec![0u8; 4096], "a retired address reads zeros after its memory was reused");
    // A zeroed view (mapped at creation) in a reused block starts all zeros.
    for _ in 0..(2 * CHUNK / 4096) {
        let view = View::open(Source::DriverZeroed(driver.as_mut_ptr()), 4000, true).expect("a view");
        let page = (view.ptr() as usize) & !(os::page_size() - 1);
        assert_eq!(read(page as *mut u8, 4096), vec![0u8; 4096], "a view's pages start as zeros");
        view.close(false);
    }
    // Other tests run beside this one and may make blocks too; what this one
    // did alone needs at most three (the open chunk, the one retiring, one
    // for a parallel test's chunk), not one per chunk.
    let fresh = super::VIEWS.lock().blocks.fresh() - fresh_before;
    assert!(fresh <= 4, "{fresh} chunks on fresh pages for 8 chunks of slots mapped one at a time");
}
