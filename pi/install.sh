#!/usr/bin/env bash
# Install (or update) the King of the Dice table assistant on Raspberry Pi OS Bookworm.
#
#   sudo /opt/kotd/pi/install.sh            everything: packages, venv, user, data, service
#   sudo /opt/kotd/pi/install.sh --venv-only  only the packages and the venv (what CI proves)
#
# Safe to run again at any time (an update is `git pull` and this script): it only changes
# what is missing or out of date and restarts the service at the end.
#
# The camera stack stays the distribution's: OpenCV, NumPy, psutil, picamera2, lgpio and
# gpiozero come from apt; the venv sees them (--system-site-packages) and pip installs only
# the pure-Python rest (Flask, waitress, segno, ...). NumPy is pinned to the system's version
# and every pip OpenCV wheel is refused, so picamera2 and simplejpeg keep importing.
#
# Options:
#   --venv-only      stop after the venv (no user, data directory, units or service)
#   --kiosk          install the full-screen page on the Pi's screen even if none is seen now
#   --no-kiosk       never install it (and disable it if it was installed)
#   --venv DIR       where the venv goes (default: .venv in this folder)
#   --no-start       install the units but do not (re)start the service
# Environment: KOTD_USER (kotd), KOTD_STATE (/var/lib/kotd), KOTD_PYTHON (/usr/bin/python3).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV=$HERE/.venv
KOTD_USER=${KOTD_USER:-kotd}
STATE=${KOTD_STATE:-/var/lib/kotd}
PYTHON=${KOTD_PYTHON:-/usr/bin/python3}
UNIT_DIR=/etc/systemd/system
VENV_ONLY=0 KIOSK=auto START=1

say() { printf 'kotd install: %s\n' "$*"; }
die() { printf 'kotd install: error: %s\n' "$*" >&2; exit 1; }

ARGS="$*"  # as given, for messages (the loop below shifts them away)
while [ $# -gt 0 ]; do
    case $1 in
        --venv-only) VENV_ONLY=1 ;;
        --kiosk) KIOSK=yes ;;
        --no-kiosk) KIOSK=no ;;
        --no-start) START=0 ;;
        --venv) [ $# -ge 2 ] || die "--venv needs a folder"; VENV=$(realpath -m "$2"); shift ;;
        -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
    shift
done

on_pi() { grep -qi 'raspberry pi' /proc/device-tree/model 2>/dev/null; }
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
has_candidate() { apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [0-9]'; }

# ---- 1. the system -------------------------------------------------------------------
check_system() {
    [ "$(id -u)" = 0 ] || die "run me as root: sudo $0 $ARGS"
    if [ ! -r /etc/os-release ] || ! command -v apt-get >/dev/null; then
        die "this is not a Debian-based system (Raspberry Pi OS Bookworm is expected)"
    fi
    [ -x "$PYTHON" ] || die "$PYTHON is missing (Raspberry Pi OS Bookworm has it)"
    "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        || die "$PYTHON is older than 3.11: use Raspberry Pi OS Bookworm (or newer)"
    case $HERE in
        /home/*|/root/*|/root) [ $VENV_ONLY = 1 ] || die "this folder ($HERE) is in a home" \
            "directory, which the service cannot read: move it, e.g. sudo mv $HERE /opt/kotd" ;;
    esac
}

apt_packages() {
    local want=(python3-venv python3-pip python3-opencv python3-numpy python3-psutil git)
    if on_pi; then
        want+=(python3-picamera2 python3-lgpio python3-gpiozero)
    fi
    if [ "${1:-}" = kiosk ]; then
        want=(cage)
        if has_candidate chromium-browser; then want+=(chromium-browser); else want+=(chromium); fi
    fi
    local missing=()
    for p in "${want[@]}"; do installed "$p" || missing+=("$p"); done
    if [ ${#missing[@]} = 0 ]; then
        say "packages: all there (${want[*]})"
        return
    fi
    say "packages: installing ${missing[*]} with apt"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q || die "apt-get update failed: is the Pi online? (the install needs" \
        "the internet once; the table does not)"
    apt-get install -y -q --no-install-recommends "${missing[@]}" \
        || die "apt-get could not install ${missing[*]}"
}

# ---- 2. the venv, the Pi way ---------------------------------------------------------
system_version() {  # the version of a distribution package the system python sees, or nothing
    "$PYTHON" -c "import importlib.metadata as m, sys
try: print(m.version(sys.argv[1]))
except m.PackageNotFoundError: pass" "$1"
}

make_venv() {
    local cfg=$VENV/pyvenv.cfg
    if [ -f "$cfg" ] && grep -q '^include-system-site-packages = true' "$cfg" \
            && [ "$(realpath "$VENV/bin/python")" = "$(realpath "$PYTHON")" ]; then
        say "venv: $VENV is there (system site packages, $PYTHON)"
    else
        if [ -e "$VENV" ]; then
            [ -f "$cfg" ] || die "$VENV exists and is not a venv: move it away first"
            say "venv: $VENV is not a --system-site-packages venv of $PYTHON: making it again"
            rm -rf "$VENV"
        fi
        "$PYTHON" -m venv --system-site-packages "$VENV"
        say "venv: made $VENV (system site packages, $PYTHON)"
    fi
    # What pip must leave alone: NumPy as the system has it, and no OpenCV wheel at all.
    local numpy
    numpy=$(system_version numpy)
    [ -n "$numpy" ] || die "the system's NumPy is missing (apt install python3-numpy)"
    {
        echo "# written by pi/install.sh: keep the distribution's camera stack"
        echo "numpy==$numpy"
        for wheel in opencv-python opencv-python-headless opencv-contrib-python \
                     opencv-contrib-python-headless; do
            echo "$wheel<0"
        done
    } > "$VENV/kotd-constraints.txt"
    local stamp=$VENV/.kotd-installed
    local want
    want="$(sha256sum "$HERE/pyproject.toml" | cut -c1-16) numpy==$numpy $HERE"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$VENV/bin/kotd" ]; then
        say "project: installed and up to date"
    else
        say "project: pip install -e $HERE (no OpenCV or NumPy wheel)"
        PIP_DISABLE_PIP_VERSION_CHECK=1 "$VENV/bin/python" -m pip install --quiet --no-input \
            --constraint "$VENV/kotd-constraints.txt" -e "$HERE" \
            || die "pip could not install the project (see above)"
        echo "$want" > "$stamp"
    fi
}

check_venv() {  # OpenCV and NumPy the system's, pip check clean for what the venv holds
    "$VENV/bin/python" -m pi.stack --pi || die "the venv is not right for the Pi (see above)"
}

# ---- 3. the service user, its data, the units ---------------------------------------
service_user() {
    if ! id -u "$KOTD_USER" >/dev/null 2>&1; then
        useradd --system --user-group --home-dir "$STATE" --no-create-home \
            --shell /usr/sbin/nologin "$KOTD_USER"
        say "user: made $KOTD_USER"
    fi
    local g
    for g in video gpio render input spi i2c; do
        if getent group "$g" >/dev/null && ! id -nG "$KOTD_USER" | grep -qw "$g"; then
            usermod -aG "$g" "$KOTD_USER"
            say "user: $KOTD_USER joins the $g group"
        fi
    done
    install -d -m 0750 -o "$KOTD_USER" -g "$KOTD_USER" "$STATE" "$STATE/backups"
    if [ ! -e "$STATE/config.toml" ]; then
        install -m 0640 -o "$KOTD_USER" -g "$KOTD_USER" "$HERE/pi/config.example.toml" \
            "$STATE/config.toml"
        say "config: wrote $STATE/config.toml (edit it with: sudoedit $STATE/config.toml)"
    fi
    if [ ! -s "$STATE/token" ]; then  # made once here, so the kiosk's credential exists
        (umask 0077; "$PYTHON" -c 'import secrets; print(secrets.token_urlsafe(12))' \
            > "$STATE/token")
        chown "$KOTD_USER:$KOTD_USER" "$STATE/token"
        say "token: made $STATE/token (shown on the Pi's screen and by: sudo kotd doctor)"
    fi
    runuser -u "$KOTD_USER" -- test -r "$HERE/pyproject.toml" \
        || die "$KOTD_USER cannot read $HERE: make it readable (chmod -R a+rX $HERE)"
    # `kotd` in the shell runs as the service's user with its data (sudo kotd doctor, ...)
    cat > /usr/local/bin/kotd.new <<EOF
#!/bin/sh
# written by $HERE/pi/install.sh: kotd for this table (its user and its data directory)
export KOTD_DATA_DIR="\${KOTD_DATA_DIR:-$STATE}"
if [ "\$(id -u)" = 0 ]; then
    exec runuser -u $KOTD_USER -- env KOTD_DATA_DIR="\$KOTD_DATA_DIR" $VENV/bin/kotd "\$@"
fi
exec $VENV/bin/kotd "\$@"
EOF
    chmod 0755 /usr/local/bin/kotd.new
    mv /usr/local/bin/kotd.new /usr/local/bin/kotd
}

existing_groups() {  # existing_groups G...: those of the groups this system has
    local g out=()
    for g in "$@"; do getent group "$g" >/dev/null && out+=("$g"); done
    echo "${out[*]}"
}

unit_text() {  # unit_text NAME: systemd/NAME with this folder's paths, user and groups
    # SupplementaryGroups= names only groups that exist here (a missing one is 216/GROUP)
    local groups
    # shellcheck disable=SC2046  # one word per group
    groups=$(existing_groups $(sed -n 's/^SupplementaryGroups=//p' "$HERE/systemd/$1"))
    sed -e "s#/opt/kotd/.venv#$VENV#g" -e "s#/opt/kotd#$HERE#g" -e "s#/var/lib/kotd#$STATE#g" \
        -e "s#^User=kotd\$#User=$KOTD_USER#" -e "s#^Group=kotd\$#Group=$KOTD_USER#" \
        -e "s#^SupplementaryGroups=.*#SupplementaryGroups=$groups#" \
        -e '/^SupplementaryGroups=$/d' "$HERE/systemd/$1"
}

kiosk_user() {  # the kiosk's own user: Chromium never runs as the game file's owner
    if ! id -u kotd-kiosk >/dev/null 2>&1; then
        useradd --system --user-group --home-dir /var/cache/kotd-kiosk --no-create-home \
            --shell /usr/sbin/nologin kotd-kiosk
        say "user: made kotd-kiosk (runs Chromium on the Pi's screen)"
    fi
}

install_unit() {  # install_unit NAME: systemd/NAME with this folder's paths; 0 if it changed
    local tmp
    tmp=$(mktemp)
    unit_text "$1" > "$tmp"
    if cmp -s "$tmp" "$UNIT_DIR/$1"; then
        rm -f "$tmp"
        return 1
    fi
    install -m 0644 "$tmp" "$UNIT_DIR/$1"
    rm -f "$tmp"
    say "unit: installed $UNIT_DIR/$1"
}

screen_present() {  # a connected HDMI/DSI/DPI screen, or an SPI screen's framebuffer
    grep -qx connected /sys/class/drm/card*-*/status 2>/dev/null || [ -e /dev/fb1 ]
}

kiosk_wanted() {
    case $KIOSK in
        yes) return 0 ;;
        no) return 1 ;;
    esac
    screen_present || { say "kiosk: no screen seen (add one and run me again, or --kiosk)"; \
        return 1; }
    if [ -d /run/systemd/system ] && [ "$(systemctl get-default)" = graphical.target ]; then
        say "kiosk: this Pi starts a desktop, which owns the screen; for the table display" \
            "use Raspberry Pi OS Lite, or: sudo systemctl set-default multi-user.target and" \
            "run me again with --kiosk"
        return 1
    fi
}

start_units() {
    local kiosk=$1
    if [ ! -d /run/systemd/system ]; then
        say "systemd is not running here: units installed, nothing started"
        return
    fi
    systemctl daemon-reload
    systemctl enable --quiet kotd.service
    if [ "$kiosk" = 1 ]; then
        systemctl enable --quiet kotd-kiosk.service
    elif [ -e "$UNIT_DIR/kotd-kiosk.service" ]; then
        systemctl disable --now --quiet kotd-kiosk.service || true
    fi
    [ $START = 1 ] || { say "not started (--no-start)"; return; }
    systemctl restart kotd.service
    [ "$kiosk" = 1 ] && systemctl restart kotd-kiosk.service
    say "service: kotd is running (journalctl -u kotd -f shows its log)"
}

main() {
    check_system
    apt_packages
    make_venv
    check_venv
    [ $VENV_ONLY = 0 ] || { say "venv ready: $VENV"; return; }
    service_user
    install_unit kotd.service || true
    local kiosk=0
    if kiosk_wanted; then
        apt_packages kiosk
        kiosk_user
        install_unit kotd-kiosk.service || true
        kiosk=1
    fi
    start_units $kiosk
    if [ -d /run/systemd/system ] && [ $START = 1 ]; then
        sleep 3
        /usr/local/bin/kotd doctor --quick || true
    else
        say "done; check it with: sudo kotd doctor"
    fi
}

# sourced (the tests read its functions): define only
[ "${BASH_SOURCE[0]}" != "$0" ] || main "$@"
