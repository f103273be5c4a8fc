#!/usr/bin/python3
"""List the host files that make up the vmtest guest's system.

usage: rootfs-list.py [--pkg NAME]... [--path PATH]... [--libs-of PATH]...

--pkg      a Debian package installed on the host: all of its files except
           documentation (dpkg -L)
--path     a host file or directory (recursively)
--libs-of  a file or directory (recursively) whose ELF files' shared
           libraries are wanted, but not the files themselves (the repo's
           build/, which vmtest.sh packs on its own)

Adds every shared library the ELF files among them need (ldd), every hop of
every symlink (/usr/bin/awk -> /etc/alternatives/awk -> /usr/bin/mawk), the
compiled __pycache__ file of every .py (so the guest does not compile under
TCG), every parent directory, and the merged-/usr links (/bin -> usr/bin).
Prints the paths relative to /, one a line, sorted so that a directory comes
before what it holds: the order `cpio -o -H newc` must get them in, since
the kernel's initramfs unpacker creates no missing parent directory.
Packages that are not installed are reported on stderr and skipped.
"""
import importlib.util
import os
import subprocess
import sys

SKIP = tuple(
    "/usr/share/" + d + "/"
    for d in ("doc", "man", "info", "locale", "lintian", "bug", "doc-base",
              "bash-completion", "zsh", "fish", "menu", "gdb", "help")
)


class Rootfs:
    def __init__(self):
        self.paths = set()
        self.dircache = {}
        self.lib_roots = set()

    def canon(self, path):
        """Resolve the symlinks in the directory part, keep the last part."""
        d, base = os.path.split(os.path.normpath(path))
        real = self.dircache.get(d)
        if real is None:
            real = self.dircache[d] = os.path.realpath(d)
        return os.path.join(real, base)

    def add(self, path):
        """Add a file or symlink (and every hop of it); return its real path."""
        seen = 0
        path = self.canon(path)
        while os.path.islink(path) and seen < 40:
            self.paths.add(path)
            target = os.readlink(path)
            path = self.canon(os.path.join(os.path.dirname(path), target))
            seen += 1
        if not os.path.lexists(path):
            return None
        if not os.path.isdir(path):
            self.paths.add(path)
        return path

    def add_tree(self, top):
        top = self.add(top)
        if top is None or not os.path.isdir(top):
            return
        self.paths.add(top)
        for root, dirs, files in os.walk(top):
            for name in dirs + files:
                p = os.path.join(root, name)
                if os.path.isdir(p) and not os.path.islink(p):
                    self.paths.add(p)
                else:
                    self.add(p)

    def add_pkg(self, pkg):
        r = subprocess.run(["dpkg", "-L", pkg], capture_output=True, text=True)
        if r.returncode != 0:
            print(f"rootfs-list: package {pkg} is not installed, skipped",
                  file=sys.stderr)
            return
        for line in r.stdout.splitlines():
            if not line.startswith("/") or line.startswith(SKIP):
                continue
            if os.path.islink(line) or os.path.isfile(line):
                self.add(line)

    def add_pyc(self):
        for p in list(self.paths):
            if p.endswith(".py") and os.path.isfile(p):
                pyc = importlib.util.cache_from_source(p)
                if os.path.isfile(pyc):
                    self.add(pyc)

    def add_lib_roots(self, top):
        if os.path.isdir(top):
            for root, _, files in os.walk(top):
                self.lib_roots.update(os.path.join(root, f) for f in files)
        elif os.path.isfile(top):
            self.lib_roots.add(top)

    def add_libs(self):
        todo = set(self.paths) | self.lib_roots
        done = set()
        while todo:
            elves = sorted(p for p in todo if is_elf(p))
            done |= todo
            todo = set()
            for i in range(0, len(elves), 200):
                out = subprocess.run(["ldd"] + elves[i:i + 200],
                                     capture_output=True, text=True).stdout
                for line in out.splitlines():
                    lib = ldd_path(line)
                    if lib:
                        real = self.add(lib)
                        if real and real not in done:
                            todo.add(real)

    def listing(self):
        out = set()
        for p in self.paths:
            d = os.path.dirname(p)
            while d != "/" and d not in out:
                out.add(d)
                d = os.path.dirname(d)
            out.add(p)
        for top in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
            if os.path.islink("/" + top):
                out.add("/" + top)
        return sorted(p[1:] for p in out)


def is_elf(path):
    """An ELF executable or shared object (not a .o or a .ko)."""
    try:
        with open(path, "rb") as f:
            head = f.read(18)
    except OSError:
        return False
    return (len(head) == 18 and head[:4] == b"\x7fELF"
            and int.from_bytes(head[16:18], "little") in (2, 3))


def ldd_path(line):
    """'\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)' -> the path."""
    line = line.strip()
    if "=>" in line:
        line = line.split("=>", 1)[1].strip()
    if line.startswith("/"):
        return line.split(" (", 1)[0]
    return None


def main(argv):
    fs = Rootfs()
    args = iter(argv)
    for a in args:
        if a == "--pkg":
            fs.add_pkg(next(args))
        elif a == "--path":
            fs.add_tree(next(args))
        elif a == "--libs-of":
            fs.add_lib_roots(next(args))
        else:
            sys.exit(f"rootfs-list: unknown argument {a}\n{__doc__}")
    fs.add_pyc()
    fs.add_libs()
    sys.stdout.write("".join(p + "\n" for p in fs.listing()))


if __name__ == "__main__":
    main(sys.argv[1:])
