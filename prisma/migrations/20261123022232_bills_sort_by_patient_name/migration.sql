-- CreateIndex
CREATE INDEX "User_firstName_id_idx" ON "User"("firstName", "id");
