package sandbox

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"strings"
	"syscall"
	"testing"
	"time"

	"convfiles/engine"
	"convfiles/files"
	"convfiles/formats"
)

// photo is a valid JPEG photo of w×h pixels with detail in every block.
func photo(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	for y := range h {
		for x := range w {
			img.Y[img.YOffset(x, y)] = uint8((x*7 + y*3 + (x*y)%23) % 256)
		}
	}
	for i := range img.Cb {
		img.Cb[i], img.Cr[i] = uint8(i%251), uint8(i%241)
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// stoppedWorker is a pool of one worker, stopped (SIGSTOP) until the
// test ends, and a conversation holding a small photo.
func stoppedWorker(t *testing.T, cfg Config) (*Pool, *engine.Space, int) {
	t.Helper()
	cfg.Workers, cfg.Warm = 1, 1
	p := newPool(t, cfg)
	_, sp := newSpace(t, "photos")
	if _, err := sp.WriteBytes(context.Background(), "photo.jpg", photo(t, 64, 48), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	pid := idleWorkerPID(t, p)
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGCONT) })
	return p, sp, pid
}

// idleWorkerPID is the process of the pool's one idle worker.
func idleWorkerPID(t *testing.T, p *Pool) int {
	t.Helper()
	p.idleMu.Lock()
	defer p.idleMu.Unlock()
	if len(p.idle) != 1 || p.idle[0].cmd.Process == nil {
		t.Fatalf("%d idle workers, want 1", len(p.idle))
	}
	return p.idle[0].cmd.Process.Pid
}

// TestFormatTimeIsCPUTimeNotWallClock: a valid photo converts on a
// machine so busy that its worker gets no CPU at all for twice the format
// time limit (the worker is stopped, then let go): the limit is the CPU
// time the file costs, which a busy machine does not change.
func TestFormatTimeIsCPUTimeNotWallClock(t *testing.T) {
	if !cpuMeasured {
		t.Skip("this system does not let the server read a worker's CPU time: format operations are bounded by wall-clock time here")
	}
	const limit = time.Second
	p, sp, pid := stoppedWorker(t, Config{FormatTimeout: limit, Grace: 100 * time.Millisecond})
	resume := time.AfterFunc(2*limit, func() { syscall.Kill(pid, syscall.SIGCONT) })
	defer resume.Stop()
	out, err := p.Call(context.Background(), formats.Env{Space: sp}, formats.NameOf(formats.Convert), formats.ConvertArgs{File: "photo.jpg", Format: "png"})
	if err != nil {
		t.Fatalf("a valid photo on a busy machine: %v", err)
	}
	if !strings.Contains(string(out), `"photo.png"`) {
		t.Fatalf("the conversion answered %s", out)
	}
	if _, killed := p.Stats(); killed != 0 {
		t.Fatalf("%d workers killed", killed)
	}
}

// TestFormatPastItsWallClockIsTheServerBeingBusy: a job that gets no CPU
// past FormatWall is stopped and answered as unavailable, never as a
// damaged file.
func TestFormatPastItsWallClockIsTheServerBeingBusy(t *testing.T) {
	if !cpuMeasured {
		t.Skip("this system does not let the server read a worker's CPU time: format operations are bounded by wall-clock time here")
	}
	p, sp, _ := stoppedWorker(t, Config{FormatTimeout: time.Minute, FormatWall: 300 * time.Millisecond})
	_, err := p.Call(context.Background(), formats.Env{Space: sp}, formats.NameOf(formats.Convert), formats.ConvertArgs{File: "photo.jpg", Format: "png"})
	if files.KindOf(err) != files.KindUnavailable || !strings.Contains(err.Error(), "the file was not at fault") {
		t.Fatalf("a job the machine gave no time: %v", err)
	}
}

// TestALargePhotoConverts: a valid 12-megapixel photo converts to PNG
// within the default limits, whatever else the machine is doing.
func TestALargePhotoConverts(t *testing.T) {
	p := newPool(t, Config{Workers: 1, Warm: 1})
	_, sp := newSpace(t, "photos")
	if _, err := sp.WriteBytes(context.Background(), "photo.jpg", photo(t, 4000, 3000), files.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	out, err := p.Call(context.Background(), formats.Env{Space: sp}, formats.NameOf(formats.Convert), formats.ConvertArgs{File: "photo.jpg", Format: "png"})
	if err != nil || !strings.Contains(string(out), `"width":4000`) {
		t.Fatalf("a 12-megapixel photo to PNG: %s, %v", out, err)
	}
}
