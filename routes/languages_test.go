package routes

// The tests run scripts in every language convfiles links, as the
// server does: each language's package registers its interpreter.
import (
	_ "convfiles/runtime/js"
	_ "convfiles/runtime/lua"
)
