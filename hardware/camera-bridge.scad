// Camera bridge for the King of the Dice table assistant (see hardware.md, "The camera bridge").
//
// Two uprights and a crossbar of 20 x 20 mm square stock (aluminium tube, an aluminium
// extrusion, or a planed wooden batten) held by four printed parts: two feet, two corners,
// and a carriage that slides along the crossbar with the Camera Module 3 looking straight
// down and a Raspberry Pi 4 or 5 on top. Every size is a parameter below; the cut list of the
// bars is printed in the console (ECHO) for the values you set.
//
//   openscad -D 'part="foot"'     -o foot.stl     camera-bridge.scad   (print 2)
//   openscad -D 'part="corner"'   -o corner.stl   camera-bridge.scad   (print 2)
//   openscad -D 'part="carriage"' -o carriage.stl camera-bridge.scad   (print 1)
//   openscad -D 'part="clip"'     -o clip.stl     camera-bridge.scad   (print 4-6)
//   openscad camera-bridge.scad   (the whole bridge over the tray, for a look)
//
// PETG or PLA, 0.2 mm layers, 4 walls, 25 % infill; no supports needed in the orientation
// the parts are modelled in. Screws: 2 x M2x6 for the camera, 4 x M2.5x6 for the Pi,
// 3 x M4x12 thumbscrews with nuts (carriage and corners), 4 wood screws or a weight per foot.

part = "all";           // all | foot | corner | carriage | clip

// ---- the table -------------------------------------------------------------------------
tray_w = 400;           // tray outer width (across the bridge), mm
tray_d = 300;           // tray outer depth, mm
tray_floor = 5;         // tray floor above the table, mm
lens_height = 500;      // lens above the tray floor: 400-600 works, 500 is a good start

// ---- the stock and the fit -------------------------------------------------------------
bar = 20;               // square stock size, mm (20 x 20)
fit = 0.4;              // clearance around the stock in the sockets
wall = 4;               // wall thickness of the printed sockets
socket = 30;            // how deep the stock goes into a socket
margin = 60;            // free space between the tray and each upright

// ---- the camera and the Pi -------------------------------------------------------------
cam_board = [25, 24];   // Camera Module 3 board, mm
cam_holes = [21, 12.5]; // its M2 hole spacing (same as Camera Module 2)
cam_hole_inset = 2;     // hole centres from the board edges
cam_lens_y = 14.5;      // lens centre from the ribbon edge of the board
pi_holes = [58, 49];    // Raspberry Pi 4 / 5 M2.5 hole spacing

span = tray_w + 2 * margin;                  // between the uprights, inside
lens_drop = wall + 12;                       // crossbar underside to lens
bar_bottom = tray_floor + lens_height + lens_drop;
foot_floor = 3;
upright_len = bar_bottom - wall - foot_floor;
crossbar_len = span + 2 * socket;

echo(str("CUT LIST: 2 uprights of ", upright_len, " mm and 1 crossbar of ", crossbar_len,
         " mm of ", bar, " x ", bar, " mm stock; inside span ", span, " mm"));
// Camera Module 3 (standard lens): 66 x 41 degrees; a 4:3 frame (1280 x 960) uses the
// middle 4:3 of the 16:9 sensor, so it sees 4/3 of the height across.
view_h = 2 * lens_height * tan(20.5);
view_w = 4 / 3 * view_h;
echo(str("VIEW: a 1280 x 960 frame covers about ", round(view_w), " x ", round(view_h),
         " mm of the tray floor (the tray is ", tray_w, " x ", tray_d, ")"));

hole = bar + fit;
outer = hole + 2 * wall;
$fn = 40;

module m_hole(d, h) { translate([0, 0, -1]) cylinder(d = d, h = h + 2); }

// A foot: a wide plate (it keeps the bridge from tipping) with a socket for an upright.
module foot() {
    plate = [outer + 50, 160, foot_floor + 2];   // long front to back: the bridge stands firm
    difference() {
        union() {
            translate([-plate[0] / 2, -plate[1] / 2, 0]) cube(plate);
            translate([-outer / 2, -outer / 2, 0]) cube([outer, outer, socket + foot_floor]);
        }
        translate([-hole / 2, -hole / 2, foot_floor]) cube([hole, hole, socket + 1]);
        for (x = [-1, 1], y = [-1, 1])
            translate([x * (plate[0] / 2 - 8), y * (plate[1] / 2 - 10), 0]) m_hole(4.5, plate[2]);
    }
}

// A corner: the upright goes in from below, the crossbar from the side (towards +x).
module corner() {
    h = socket + wall + outer;
    difference() {
        union() {
            translate([-outer / 2, -outer / 2, 0]) cube([outer, outer, h]);
            translate([-outer / 2, -outer / 2, socket + wall]) cube([outer + socket, outer, outer]);
        }
        translate([-hole / 2, -hole / 2, -1]) cube([hole, hole, socket + 1]);
        translate([-hole / 2, -hole / 2, socket + wall + wall]) cube([outer + socket, hole, hole]);
        // thumbscrews that hold the stock
        translate([0, outer / 2 + 1, socket / 2]) rotate([90, 0, 0]) m_hole(4.3, outer);
        translate([outer / 2 + socket / 2, 0, socket + wall + outer - wall - 1])
            m_hole(4.3, wall + 2);
    }
}

// The carriage: a sleeve on the crossbar; below it the camera looking down, on top the Pi.
module carriage() {
    len = 70;
    plate = [cam_board[0] + 10, cam_board[1] + 10];
    difference() {
        union() {
            // sleeve (the crossbar runs along x)
            translate([-len / 2, -outer / 2, 0]) cube([len, outer, outer]);
            // camera plate under the sleeve
            translate([-plate[0] / 2, -plate[1] / 2, -wall]) cube([plate[0], plate[1], wall]);
            // Pi plate on top of the sleeve
            translate([-pi_holes[0] / 2 - 6, -pi_holes[1] / 2 - 6, outer])
                cube([pi_holes[0] + 12, pi_holes[1] + 12, 3]);
        }
        translate([-len / 2 - 1, -hole / 2, wall]) cube([len + 2, hole, hole]);
        // thumbscrew through the side of the sleeve
        translate([0, -outer / 2 - 1, outer / 2]) rotate([-90, 0, 0]) m_hole(4.3, wall + 2);
        // camera: lens opening and the four M2 holes (board centred under the sleeve)
        translate([-cam_board[0] / 2, -cam_board[1] / 2, -wall]) {
            translate([cam_board[0] / 2, cam_lens_y, 0]) m_hole(13, wall);
            for (x = [cam_hole_inset, cam_hole_inset + cam_holes[0]],
                 y = [cam_hole_inset, cam_hole_inset + cam_holes[1]])
                translate([x, y, 0]) m_hole(2.2, wall);
        }
        // Pi: four M2.5 holes, and an opening for the camera ribbon
        for (x = [-1, 1], y = [-1, 1])
            translate([x * pi_holes[0] / 2, y * pi_holes[1] / 2, outer]) m_hole(2.7, 3);
        translate([-10, -pi_holes[1] / 2 - 7, outer - 1]) cube([20, 10, 5]);
    }
}

// A clip that holds the panel's wires and the power cable along an upright.
module clip() {
    difference() {
        translate([-outer / 2, -outer / 2, 0]) cube([outer + 12, outer, 10]);
        translate([-hole / 2, -hole / 2, -1]) cube([hole, hole, 12]);
        translate([outer / 2 + 1, -4, -1]) cube([6, 8, 12]);
        translate([outer / 2 + 4, -1, -1]) cube([10, 2, 12]);
    }
}

module stock(len) { color("silver", 0.8) cube([bar, bar, len]); }

module assembly() {
    color("tan", 0.5) translate([-tray_w / 2, -tray_d / 2, 0]) difference() {
        cube([tray_w, tray_d, tray_floor + 30]);
        translate([8, 8, tray_floor]) cube([tray_w - 16, tray_d - 16, 40]);
    }
    for (s = [-1, 1]) {
        x = s * (span / 2 + outer / 2);
        translate([x, 0, 0]) color("orange") foot();
        translate([x - bar / 2, -bar / 2, foot_floor]) stock(upright_len);
        translate([x, 0, foot_floor + upright_len - socket])
            color("orange") mirror([s > 0 ? 1 : 0, 0, 0]) corner();
    }
    translate([-crossbar_len / 2, -bar / 2, bar_bottom]) rotate([0, 90, 0])
        translate([-bar, 0, 0]) stock(crossbar_len);
    translate([0, 0, bar_bottom - wall]) color("orange") carriage();
    // the field of view at the tray floor
    color("green", 0.15) translate([0, 0, tray_floor])
        linear_extrude(height = lens_height, scale = 0.01)
            square([view_w, view_h], center = true);
}

if (part == "foot") foot();
else if (part == "corner") corner();
else if (part == "carriage") carriage();
else if (part == "clip") clip();
else assembly();
