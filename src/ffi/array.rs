//! Arrays the library allocates for the application (`Supported*` lists),
//! freed by the matching `*FreeMembers`.

/// Hands `items` to the application as (count, pointer); an empty list is
/// (0, NULL).
pub(crate) fn into_raw<T>(items: Vec<T>) -> (usize, *const T) {
    if items.is_empty() {
        return (0, std::ptr::null());
    }
    let boxed: Box<[T]> = items.into_boxed_slice();
    let count = boxed.len();
    (count, Box::into_raw(boxed) as *const T)
}

/// Frees an array made by [`into_raw`]. NULL is ignored.
///
/// # Safety
/// `(ptr, count)` came from [`into_raw`] and was not freed before.
pub(crate) unsafe fn free<T>(ptr: *const T, count: usize) {
    if ptr.is_null() || count == 0 {
        return;
    }
    // SAFETY: the caller passes back exactly what `into_raw` returned.
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr as *mut T, count)) });
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trip() {
        let (n, p) = super::into_raw(vec![1u32, 2, 3]);
        assert_eq!(n, 3);
        // SAFETY: freeing what was just made.
        unsafe { super::free(p, n) };
        let (n, p) = super::into_raw(Vec::<u32>::new());
        assert_eq!((n, p.is_null()), (0, true));
    }
}
