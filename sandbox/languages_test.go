package sandbox

// The tests run scripts in every language convfiles links, in workers
// that are this test binary, as the server's workers are its own binary:
// each language's package registers its interpreter.
import (
	_ "convfiles/runtime/js"
	_ "convfiles/runtime/lua"
)
