#!/usr/bin/env node
"use strict";
require("../ecfx.cjs");
