#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fibril::fuzz::vti(data));
