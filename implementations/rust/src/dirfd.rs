//! Opened directories (R140–R142, X11): the one place the crate touches the file system of a skill tree. A
//! directory is opened once and everything under it is reached from that handle (openat), by its name's exact
//! bytes; the real path checked against the fence is the one of what was opened (the descriptor's
//! /proc/self/fd link), never one resolved before the open; no open waits (O_NONBLOCK), and a file is read only
//! after fstat says it is regular, through a reopen of the very inode that was fenced. Where /proc/self/fd cannot
//! be read no real path is known and every fence check fails closed.
use std::ffi::{CString, OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

/// An entry's type as readdir gives it (lstat's when readdir does not say).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Type {
    Dir,
    File,
    Symlink,
    Other,
}

/// An opened directory.
pub struct Dir {
    fd: OwnedFd,
}

/// A file opened with O_PATH: its identity and real path are known, nothing has been read or could block.
pub struct Handle {
    fd: OwnedFd,
}

fn cstr(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
}

fn check(fd: RawFd) -> io::Result<OwnedFd> {
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a descriptor the kernel just returned to us, owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// A directory is opened as a handle for lookups only (O_PATH): it needs search permission, not read permission, as a
/// path lookup does; its entries are read through a reopen (`entries`).
const DIR_FLAGS: libc::c_int = libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC;

/// The real path of an open descriptor, from the kernel's own record of what it opened. A real path that is not UTF-8
/// is no usable path (R140: every path the tool names is UTF-8), nor is a deleted file's or an anonymous object's.
fn real_path_of(fd: RawFd) -> Option<PathBuf> {
    let link = std::fs::read_link(format!("/proc/self/fd/{fd}")).ok()?;
    let usable = link.is_absolute()
        && link.to_str().is_some()
        && !link.as_os_str().as_bytes().ends_with(b" (deleted)");
    usable.then_some(link)
}

/// Open the object behind an O_PATH descriptor again, with `flags`: the same inode, whatever its path is now.
fn reopen(fd: RawFd, flags: libc::c_int) -> io::Result<OwnedFd> {
    let p = cstr(format!("/proc/self/fd/{fd}").as_bytes())?;
    // SAFETY: p is a valid NUL-terminated string for the call's duration.
    check(unsafe { libc::open(p.as_ptr(), flags | libc::O_NONBLOCK | libc::O_CLOEXEC) })
}

fn stat(fd: RawFd) -> io::Result<libc::stat> {
    // SAFETY: `st` is written by fstat before it is read; fd is open for the call's duration.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(fd, &mut st) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(st)
}

impl Dir {
    /// Open a directory by path (a root or a configured skill dir), following symlinks.
    pub fn open(path: &Path) -> io::Result<Dir> {
        let p = cstr(path.as_os_str().as_bytes())?;
        // SAFETY: p is a valid NUL-terminated string for the call's duration.
        check(unsafe { libc::open(p.as_ptr(), DIR_FLAGS) }).map(|fd| Dir { fd })
    }

    /// Open the child directory `name`, following a symlink (the caller fences its real path).
    pub fn dir_at(&self, name: &OsStr) -> io::Result<Dir> {
        self.dir_at_flags(name, 0)
    }

    /// Open the child directory `name` only if it is one itself: a symlink put in its place since it was listed
    /// is not followed (ELOOP).
    pub fn plain_dir_at(&self, name: &OsStr) -> io::Result<Dir> {
        self.dir_at_flags(name, libc::O_NOFOLLOW)
    }

    fn dir_at_flags(&self, name: &OsStr, extra: libc::c_int) -> io::Result<Dir> {
        let n = cstr(name.as_bytes())?;
        // SAFETY: as in `open`; self.fd is an open directory.
        check(unsafe { libc::openat(self.fd.as_raw_fd(), n.as_ptr(), DIR_FLAGS | extra) })
            .map(|fd| Dir { fd })
    }

    /// The child `name`, following a symlink, opened without reading (O_PATH): never blocks, opens no device.
    pub fn handle_at(&self, name: &OsStr) -> io::Result<Handle> {
        let n = cstr(name.as_bytes())?;
        // SAFETY: as in `dir_at`.
        check(unsafe {
            libc::openat(
                self.fd.as_raw_fd(),
                n.as_ptr(),
                libc::O_PATH | libc::O_CLOEXEC,
            )
        })
        .map(|fd| Handle { fd })
    }

    /// The type of the child `name` itself (lstat: a symlink is a symlink), or the error.
    pub fn type_at(&self, name: &OsStr) -> io::Result<Type> {
        let n = cstr(name.as_bytes())?;
        // SAFETY: `st` is written by fstatat before it is read.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        if unsafe {
            libc::fstatat(
                self.fd.as_raw_fd(),
                n.as_ptr(),
                &mut st,
                libc::AT_SYMLINK_NOFOLLOW,
            )
        } < 0
        {
            return Err(io::Error::last_os_error());
        }
        Ok(mode_type(st.st_mode))
    }

    /// The real path of this directory as opened.
    pub fn real_path(&self) -> Option<PathBuf> {
        real_path_of(self.fd.as_raw_fd())
    }

    /// Every entry but `.` and `..`, names as bytes, in the order the directory gives them.
    pub fn entries(&self) -> io::Result<Vec<(OsString, Type)>> {
        // fdopendir takes the descriptor over: a reopen for reading, so this lookup handle stays as it is.
        let dup = reopen(self.fd.as_raw_fd(), libc::O_RDONLY | libc::O_DIRECTORY)?;
        let raw = dup.as_raw_fd();
        // SAFETY: raw is an open directory descriptor; on success the DIR stream owns it (closedir closes it).
        let stream = unsafe { libc::fdopendir(raw) };
        if stream.is_null() {
            return Err(io::Error::last_os_error());
        }
        std::mem::forget(dup);
        let mut out = Vec::new();
        loop {
            // SAFETY: stream is a valid DIR*; the dirent it returns is valid until the next readdir.
            let entry = unsafe { libc::readdir(stream) };
            if entry.is_null() {
                break;
            }
            let (name, d_type) = unsafe {
                (
                    std::ffi::CStr::from_ptr((*entry).d_name.as_ptr())
                        .to_bytes()
                        .to_vec(),
                    (*entry).d_type,
                )
            };
            if name == b"." || name == b".." {
                continue;
            }
            let name = OsString::from_vec(name);
            let kind = match d_type {
                libc::DT_DIR => Type::Dir,
                libc::DT_REG => Type::File,
                libc::DT_LNK => Type::Symlink,
                libc::DT_UNKNOWN => self.type_at(&name).unwrap_or(Type::Other),
                _ => Type::Other,
            };
            out.push((name, kind));
        }
        // SAFETY: stream came from fdopendir and is closed once.
        unsafe { libc::closedir(stream) };
        Ok(out)
    }
}

fn mode_type(mode: libc::mode_t) -> Type {
    match mode & libc::S_IFMT {
        libc::S_IFDIR => Type::Dir,
        libc::S_IFREG => Type::File,
        libc::S_IFLNK => Type::Symlink,
        _ => Type::Other,
    }
}

impl Handle {
    /// The real path of the file opened.
    pub fn real_path(&self) -> Option<PathBuf> {
        real_path_of(self.fd.as_raw_fd())
    }

    /// Its type and size (fstat of the opened file: a symlink has been followed).
    pub fn kind(&self) -> io::Result<(Type, u64)> {
        let st = stat(self.fd.as_raw_fd())?;
        Ok((mode_type(st.st_mode), st.st_size as u64))
    }

    /// Open this very file for reading, without waiting: a reopen through the descriptor's own link reaches the
    /// inode that was fenced, whatever has happened to its path since.
    pub fn read(&self) -> io::Result<File> {
        reopen(self.fd.as_raw_fd(), libc::O_RDONLY | libc::O_NOCTTY).map(File::from)
    }
}

/// R140's display form of a name that may not be UTF-8: each well-formed UTF-8 sequence is its character, any
/// other byte `\xHH` (two lowercase hex digits), reading on at the next byte.
pub fn escaped_name(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 8);
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                break;
            }
            Err(e) => {
                let good = e.valid_up_to();
                out.push_str(std::str::from_utf8(&rest[..good]).expect("valid up to here"));
                out.push_str(&format!("\\x{:02x}", rest[good]));
                rest = &rest[good + 1..];
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_names_show_each_bad_byte_and_keep_the_rest() {
        assert_eq!(escaped_name(b"ok"), "ok");
        assert_eq!(escaped_name(b"x\xff"), "x\\xff");
        // A truncated sequence is bytes one at a time; what follows it is read as UTF-8 again.
        assert_eq!(escaped_name(b"\xe2\x82A\xc3\xa9"), "\\xe2\\x82Aé");
        // A surrogate's UTF-8 encoding (CESU) is not well-formed UTF-8.
        assert_eq!(escaped_name(b"\xed\xa0\x80"), "\\xed\\xa0\\x80");
    }

    #[test]
    fn a_fifo_is_opened_without_waiting_and_read_never() {
        let dir = std::env::temp_dir().join(format!("dirfd-fifo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = cstr(dir.join("p").as_os_str().as_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        let d = Dir::open(&dir).unwrap();
        let h = d.handle_at(OsStr::new("p")).unwrap();
        assert_eq!(h.kind().unwrap().0, Type::Other);
        assert_eq!(
            h.real_path().unwrap(),
            std::fs::canonicalize(&dir).unwrap().join("p")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
