#!/bin/sh
# Install or uninstall fmtd: binaries, data, systemd units, the fmtd system user, man pages and bash completion.
# (On Debian, prefer the package: swift package --allow-writing-to-package-directory build-deb.)
#
#   systemd/install.sh [install|uninstall] [--build-dir DIR]
#
# Environment (packagers set these):
#   PREFIX        install prefix (default /usr/local): $PREFIX/bin/{fmtd,fmtq}, $PREFIX/share/fmtd
#   DESTDIR       staging root prepended to every path; when set, no systemd-sysusers or systemctl step runs
#   SYSCONFDIR    configuration root (default /etc): local additions in $SYSCONFDIR/fmtd
#   UNITDIR       systemd unit directory (default $PREFIX/lib/systemd/system for /usr and /usr/local,
#                 which systemd searches, else /etc/systemd/system)
#   SYSUSERSDIR   sysusers.d directory (default $PREFIX/lib/sysusers.d for /usr and /usr/local, else
#                 /etc/sysusers.d)
#   BINDIR_SOURCE directory holding already built fmtd and fmtq (same as --build-dir); without it the
#                 script runs a release build: swift build -c release --static-swift-stdlib
#   SWIFT_BUILD_FLAGS extra flags for that build (e.g. --scratch-path DIR)
#
# Every step is printed before it runs. The systemctl steps need a system booted with systemd; elsewhere
# (containers, CI, image builds) they are printed as what to run later.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
package=$(dirname "$here")
action=install
build_dir=${BINDIR_SOURCE:-}

usage() {
    sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
    case $1 in
        install | uninstall) action=$1 ;;
        --build-dir)
            [ $# -ge 2 ] || { echo "install.sh: --build-dir needs a directory" >&2; exit 2; }
            build_dir=$2
            shift
            ;;
        --build-dir=*) build_dir=${1#--build-dir=} ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done

PREFIX=${PREFIX:-/usr/local}
PREFIX=${PREFIX%/}
DESTDIR=${DESTDIR:-}
DESTDIR=${DESTDIR%/}
SYSCONFDIR=${SYSCONFDIR:-/etc}
case $PREFIX in
    /usr | /usr/local)
        UNITDIR=${UNITDIR:-$PREFIX/lib/systemd/system}
        SYSUSERSDIR=${SYSUSERSDIR:-$PREFIX/lib/sysusers.d}
        ;;
    *)
        UNITDIR=${UNITDIR:-$SYSCONFDIR/systemd/system}
        SYSUSERSDIR=${SYSUSERSDIR:-$SYSCONFDIR/sysusers.d}
        ;;
esac

bindir=$PREFIX/bin
datadir=$PREFIX/share/fmtd
docdir=$PREFIX/share/doc/fmtd
mandir=$PREFIX/share/man
completiondir=$PREFIX/share/bash-completion/completions
# Units installed; fmtd-metrics.* (for node_exporter's textfile collector) are installed but not enabled.
units="fmtd.socket fmtd.service fmtd-metrics.service fmtd-metrics.timer"
# Man pages: name, section, and the command that prints it.
manpages="fmtd.8 fmtq.1 fmtd-protocol.7"
confdir=$SYSCONFDIR/fmtd
# Directories under the configuration root that fmtd reads local additions from.
confsubdirs="address-formats.d messages.d copy-rules.d"

run() {
    echo "+ $*"
    "$@"
}

# True on a system booted with systemd (the test sd_booted(3) and systemctl use).
systemd_running() {
    [ -d /run/systemd/system ]
}

# True when the systemd steps should run here rather than be printed for later.
live_system() {
    [ -z "$DESTDIR" ]
}

skip_reason() {
    if [ -n "$DESTDIR" ]; then echo "DESTDIR is set"; else echo "systemd is not running here"; fi
}

# Removes a directory and its empty parents up to (not including) the prefix or configuration root.
prune() {
    dir=$1
    stop=$2
    while [ "$dir" != "$stop" ] && [ "$dir" != "/" ] && [ "$dir" != "$DESTDIR" ] && [ -d "$dir" ]; do
        rmdir "$dir" 2>/dev/null || return 0
        echo "+ rmdir $dir"
        dir=$(dirname "$dir")
    done
}

find_binaries() {
    if [ -z "$build_dir" ]; then
        echo "Building release binaries (set BINDIR_SOURCE or pass --build-dir to use existing ones)"
        # shellcheck disable=SC2086 # SWIFT_BUILD_FLAGS is a list of words
        set -- --package-path "$package" -c release --static-swift-stdlib ${SWIFT_BUILD_FLAGS:-}
        run swift build "$@" --product fmtd
        run swift build "$@" --product fmtq
        build_dir=$(swift build "$@" --show-bin-path)
    fi
    for binary in fmtd fmtq; do
        [ -x "$build_dir/$binary" ] || { echo "install.sh: no executable $build_dir/$binary" >&2; exit 1; }
    done
}

# Unit files with the installed binary and configuration directory in ExecStart=.
install_unit() {
    name=$1
    target=$DESTDIR$UNITDIR/$name
    echo "+ install -m 0644 $here/$name $target (ExecStart=$bindir/fmtd --config-dir $confdir)"
    sed -e "s|/usr/local/bin/fmtd|$bindir/fmtd|g" -e "s|/usr/local/bin/fmtq|$bindir/fmtq|g" \
        -e "s|--config-dir /etc/fmtd|--config-dir $confdir|g" \
        "$here/$name" > "$target.tmp"
    chmod 0644 "$target.tmp"
    mv "$target.tmp" "$target"
}

do_install() {
    find_binaries
    run install -d -m 0755 "$DESTDIR$bindir" "$DESTDIR$datadir" "$DESTDIR$docdir" "$DESTDIR$UNITDIR" \
        "$DESTDIR$SYSUSERSDIR"
    run install -m 0755 "$build_dir/fmtd" "$build_dir/fmtq" "$DESTDIR$bindir/"

    echo "Data: $package/data -> $DESTDIR$datadir (test vectors left out)"
    (
        cd "$package/data"
        find . -type f \( -name '*.json' -o -name NOTICE -o -name README.md \) ! -path './vectors/*' | sort
    ) | while read -r file; do
        file=${file#./}
        install -D -m 0644 "$package/data/$file" "$DESTDIR$datadir/$file"
        echo "+ install -m 0644 data/$file $DESTDIR$datadir/$file"
    done

    for unit in $units; do
        install_unit "$unit"
    done
    run install -m 0644 "$here/fmtd.sysusers" "$DESTDIR$SYSUSERSDIR/fmtd.conf"
    run install -m 0644 "$here/fmtd.service.d/example.conf.sample" "$DESTDIR$docdir/fmtd.service.d-example.conf"

    for sub in $confsubdirs; do
        run install -d -m 0755 "$DESTDIR$confdir/$sub"
    done

    # Man pages and completion, generated by the binaries from their option tables (the same as --help).
    for page in $manpages; do
        run install -d -m 0755 "$DESTDIR$mandir/man${page##*.}"
        echo "+ generate $DESTDIR$mandir/man${page##*.}/$page"
        case $page in
            fmtd.8) "$build_dir/fmtd" --generate-manual ;;
            fmtq.1) "$build_dir/fmtq" --generate-manual fmtq ;;
            fmtd-protocol.7) "$build_dir/fmtq" --generate-manual fmtd-protocol ;;
        esac > "$DESTDIR$mandir/man${page##*.}/$page"
        chmod 0644 "$DESTDIR$mandir/man${page##*.}/$page"
    done
    run install -d -m 0755 "$DESTDIR$completiondir"
    languages=$(cd "$package/data/translations" && ls -- *.json | sed 's/\.json$//' | paste -sd, -)
    echo "+ generate $DESTDIR$completiondir/fmtq (locales of: $languages)"
    "$build_dir/fmtq" --generate-completion bash --completion-languages "$languages" > "$DESTDIR$completiondir/fmtq"
    chmod 0644 "$DESTDIR$completiondir/fmtq"

    if live_system; then
        run systemd-sysusers "$SYSUSERSDIR/fmtd.conf"
    else
        echo "Skipped (DESTDIR is set): systemd-sysusers $SYSUSERSDIR/fmtd.conf"
    fi
    if live_system && systemd_running; then
        run systemctl daemon-reload
        run systemctl enable --now fmtd.socket
        echo "fmtd listens on /run/fmtd/fmtd.sock; add clients to group fmtd: usermod -aG fmtd <user>"
        echo "With node_exporter: systemctl enable --now fmtd-metrics.timer (see fmtd-metrics.service)"
    else
        echo "Skipped ($(skip_reason)); on the target system run:"
        echo "  systemd-sysusers && systemctl daemon-reload && systemctl enable --now fmtd.socket"
    fi
}

do_uninstall() {
    if live_system && systemd_running; then
        run systemctl disable --now fmtd-metrics.timer fmtd-metrics.service fmtd.socket fmtd.service || true
    else
        echo "Skipped ($(skip_reason)): systemctl disable --now fmtd-metrics.timer fmtd.socket fmtd.service"
    fi
    for file in "$bindir/fmtd" "$bindir/fmtq" "$SYSUSERSDIR/fmtd.conf" "$docdir/fmtd.service.d-example.conf" \
        "$completiondir/fmtq"; do
        if [ -e "$DESTDIR$file" ]; then run rm -f "$DESTDIR$file"; fi
    done
    for unit in $units; do
        if [ -e "$DESTDIR$UNITDIR/$unit" ]; then run rm -f "$DESTDIR$UNITDIR/$unit"; fi
    done
    for page in $manpages; do
        file=$DESTDIR$mandir/man${page##*.}/$page
        if [ -e "$file" ]; then run rm -f "$file"; fi
        prune "$DESTDIR$mandir/man${page##*.}" "$DESTDIR$mandir"
    done
    prune "$DESTDIR$completiondir" "$DESTDIR$PREFIX/share"
    if [ -d "$DESTDIR$datadir" ]; then run rm -rf "$DESTDIR$datadir"; fi
    prune "$DESTDIR$docdir" "$DESTDIR$PREFIX/share/doc"
    for sub in $confsubdirs; do
        prune "$DESTDIR$confdir/$sub" "$DESTDIR$SYSCONFDIR"
    done
    for dir in "$UNITDIR" "$SYSUSERSDIR"; do
        case $dir in "$PREFIX"/lib/*) prune "$DESTDIR$dir" "$DESTDIR$PREFIX/lib" ;; esac
    done
    # In a staging tree every directory is ours; on a live system /usr/local/bin and friends are not.
    if [ -n "$DESTDIR" ]; then
        for dir in "$DESTDIR$bindir" "$DESTDIR$UNITDIR" "$DESTDIR$SYSUSERSDIR" "$DESTDIR$PREFIX/lib" \
            "$DESTDIR$PREFIX/share/doc" "$DESTDIR$mandir" "$DESTDIR$SYSCONFDIR"; do
            prune "$dir" "$DESTDIR"
        done
    fi
    if [ -d "$DESTDIR$confdir" ]; then
        echo "Kept $DESTDIR$confdir: it holds local files (remove it yourself if they are no longer needed)"
    fi
    if live_system && systemd_running; then
        run systemctl daemon-reload
    fi
    if live_system; then
        echo "Kept the fmtd user and group (files may still belong to them): userdel fmtd removes both"
    fi
}

case $action in
    install) do_install ;;
    uninstall) do_uninstall ;;
esac
